// Job files, second stage: sections of raw options -> JobSpecs through the option table; several files;
// --showcmd.
#include "job/job_file.h"

#include <fmt/format.h>

#include "job/job_file_reader.h"
#include "job/option_builders.h"
#include "job/option_table.h"

namespace sluice {
namespace {

constexpr std::size_t kMaxReportedErrors = 50;

std::string join_lines(const std::vector<std::string>& messages) {
  std::string text;
  for (const std::string& m : messages) {
    if (!text.empty()) text += '\n';
    text += m;
  }
  return text;
}

// A scope being built: the file's current globals, or one job.
struct Scope {
  JobSpec spec;
  std::vector<AppliedOption> options;
};

std::string describe_line(const detail::RawOption& raw) {
  return raw.has_value ? raw.name + "=" + raw.value : raw.name;
}

// Problems the option table cannot see: a bare word that is not a flag.
void check_bare_word(const detail::RawOption& raw, const OptionDef* def) {
  if (raw.has_value) return;
  const std::string prefix = raw.where.describe() + ": ";
  if (def == nullptr && raw.name.find_first_of(" \t") != std::string::npos) {
    throw UserError(prefix + "'" + raw.name + "' is not an option line; options look like name=value");
  }
  if (def != nullptr && def->supported && !def->flag) {
    throw UserError(prefix + "option '" + raw.name + "' needs a value (" + raw.name + "=VALUE)");
  }
}

void apply_raw(Scope& scope, const detail::RawOption& raw, const ExpansionContext& expansion) {
  const OptionDef* def = find_option(raw.name);
  check_bare_word(raw, def);
  std::string value;
  try {
    value = expand_value(raw.value, def, scope.spec.report.kb_base, expansion);
  } catch (const UserError& e) {
    throw UserError(raw.where.describe() + ": " + describe_line(raw) + ": " + e.what());
  }
  apply_option(scope.spec, raw.name, value, raw.where);
  scope.options.push_back(AppliedOption{raw.name, value, raw.has_value, raw.where});
}

bool is_kb_base(const detail::RawOption& raw) {
  const OptionDef* def = find_option(raw.name);
  return def != nullptr && def->name == "kb_base";
}

// fio applies a scope's kb_base before its sizes, whatever the order; so does the command line of sluice.
void apply_section(Scope& scope, const detail::RawSection& section, const ExpansionContext& expansion,
                   std::vector<std::string>& errors) {
  for (int pass = 0; pass < 2; ++pass) {
    for (const detail::RawOption& raw : section.options) {
      if (!raw.problem.empty()) {
        if (pass == 1) errors.push_back(raw.problem);
        continue;
      }
      if (is_kb_base(raw) != (pass == 0)) continue;
      try {
        apply_raw(scope, raw, expansion);
      } catch (const UserError& e) {
        errors.emplace_back(e.what());
      }
    }
  }
}

Scope command_line_scope(const JobFileSettings& settings) {
  Scope scope{settings.globals, {}};
  // given_options is ordered by name; kb_base first keeps the sizes' meaning on a replayed command line.
  const auto kb = settings.globals.given_options.find("kb_base");
  if (kb != settings.globals.given_options.end()) scope.options.push_back({kb->first, kb->second, true, {}});
  for (const auto& [name, value] : settings.globals.given_options) {
    if (name != "kb_base") scope.options.push_back({name, value, !value.empty(), {}});
  }
  return scope;
}

std::vector<FileJob> build_jobs(const std::vector<detail::RawSection>& sections, const JobFileSettings& settings,
                                std::vector<std::string>& errors) {
  Scope globals = command_line_scope(settings);
  std::vector<FileJob> jobs;
  for (const detail::RawSection& section : sections) {
    if (section.is_global()) {
      apply_section(globals, section, settings.expansion, errors);
      continue;
    }
    Scope job = globals;
    job.spec.name = section.name;
    job.spec.where = section.where;
    apply_section(job, section, settings.expansion, errors);
    detail::finish_parsed_job(job.spec);
    jobs.push_back(FileJob{std::move(job.spec), std::move(job.options)});
  }
  return jobs;
}

detail::ReaderLimits reader_limits(const JobFileSettings& settings) {
  return detail::ReaderLimits{settings.max_include_depth, &settings.expansion};
}

[[noreturn]] void throw_errors(std::vector<std::string> errors) {
  if (errors.size() > kMaxReportedErrors) {
    const std::size_t more = errors.size() - kMaxReportedErrors;
    errors.resize(kMaxReportedErrors);
    errors.push_back(fmt::format("... and {} more problems", more));
  }
  throw JobFileError(std::move(errors));
}

std::vector<FileJob> parse_one(const std::string& path, const JobFileSettings& settings,
                               std::vector<std::string>& errors) {
  const auto sections = detail::read_sections_from_file(path, reader_limits(settings), errors);
  std::vector<FileJob> jobs = build_jobs(sections, settings, errors);
  if (jobs.empty() && errors.empty()) errors.push_back(path + ": no job section in the file");
  return jobs;
}

bool needs_quoting(std::string_view text) {
  if (text.empty()) return true;
  for (const char c : text) {
    const bool plain = std::isalnum(static_cast<unsigned char>(c)) ||
                       std::string_view("_-+=.,:/%@^").find(c) != std::string_view::npos;
    if (!plain) return true;
  }
  return false;
}

std::string shell_quote(std::string_view text) {
  if (!needs_quoting(text)) return std::string(text);
  std::string out = "'";
  for (const char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

}  // namespace

JobFileError::JobFileError(std::vector<std::string> messages)
    : UserError(join_lines(messages)), messages_(std::move(messages)) {}

std::vector<FileJob> parse_job_file(const std::string& path, const JobFileSettings& settings) {
  std::vector<std::string> errors;
  std::vector<FileJob> jobs = parse_one(path, settings, errors);
  if (!errors.empty()) throw_errors(std::move(errors));
  return jobs;
}

std::vector<FileJob> parse_job_text(std::string_view text, const std::string& path, const JobFileSettings& settings) {
  std::vector<std::string> errors;
  const auto sections = detail::read_sections(text, path, reader_limits(settings), errors);
  std::vector<FileJob> jobs = build_jobs(sections, settings, errors);
  if (!errors.empty()) throw_errors(std::move(errors));
  return jobs;
}

std::vector<FileJob> parse_job_files(const std::vector<std::string>& paths, const JobFileSettings& settings) {
  std::vector<std::string> errors;
  std::vector<FileJob> all;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    std::vector<FileJob> jobs = parse_one(paths[i], settings, errors);
    if (i > 0 && !jobs.empty())
      jobs.front().spec.control.stonewall = true;  // fio: each later file waits for the earlier
    for (FileJob& job : jobs) all.push_back(std::move(job));
  }
  if (!errors.empty()) throw_errors(std::move(errors));
  return all;
}

std::string showcmd_line(const FileJob& job) {
  std::string line = "sluice run --name=";
  line.append(shell_quote(job.spec.name));
  for (const AppliedOption& option : job.options) {
    if (option.name == "name") continue;  // the job's final name is already first
    line.append(" --").append(option.name);
    if (option.has_value) line.append("=").append(shell_quote(option.value));
  }
  if (job.spec.control.stonewall && job.spec.given_options.count("stonewall") == 0) line += " --stonewall";
  return line;
}

}  // namespace sluice
