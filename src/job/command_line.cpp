// fio-style command line of `sluice run`: job options only as --opt=value (or --flag), run-level options
// also as "--opt value".
#include "job/command_line.h"

#include <algorithm>
#include <charconv>

#include "job/fio_global_options.h"
#include "job/fio_profiles.h"
#include "job/option_builders.h"
#include "job/option_table.h"
#include "job/units.h"

namespace sluice {
namespace {

struct Argument {
  std::string name;
  std::string value;
  bool has_value = false;
};

Argument split_argument(std::string_view arg) {
  Argument out;
  const std::string_view body = arg.substr(2);
  const std::size_t eq = body.find('=');
  out.name = std::string(body.substr(0, eq));
  if (eq != std::string_view::npos) {
    out.value = std::string(body.substr(eq + 1));
    out.has_value = true;
  }
  return out;
}

bool is_fio_global(std::string_view name) {
  const auto& names = fio_global_option_names();
  return std::find(names.begin(), names.end(), name) != names.end();
}

[[noreturn]] void cli_error(const Argument& arg, std::string_view what) {
  std::string text = "--" + arg.name;
  if (arg.has_value) text += "=" + arg.value;
  throw UserError(text + ": " + std::string(what));
}

void parse_output_formats(const Argument& arg, RunOptions& run) {
  static const std::vector<std::string> kChoices = {"normal", "json", "json+", "terse"};
  std::vector<std::string> names;
  std::size_t start = 0;
  while (start <= arg.value.size()) {
    const std::size_t comma = std::min(arg.value.find(',', start), arg.value.size());
    const std::string item = arg.value.substr(start, comma - start);
    start = comma + 1;
    if (std::find(kChoices.begin(), kChoices.end(), item) == kChoices.end()) {
      const std::string nearest = detail::nearest_of(item, kChoices);
      cli_error(arg, "'" + item + "' is not one of normal, json, json+, terse" +
                         (nearest.empty() ? "" : "; did you mean '" + nearest + "'?"));
    }
    names.push_back(item);
  }
  run.output_formats = output_formats_of(names);
}

void parse_status_interval(const Argument& arg, RunOptions& run) {
  const auto interval = parse_duration(arg.value, std::chrono::seconds(1));
  if (!interval || interval->count() <= 0) cli_error(arg, "not a positive duration; e.g. 1, 500ms, 10s");
  run.report_interval = *interval;
}

void parse_history_text(const Argument& arg, std::string& target) {
  if (arg.value.empty()) cli_error(arg, "value missing; use --" + arg.name + (arg.name == "db" ? "=PATH" : "=TEXT"));
  target = arg.value;
}

void parse_repeat(const Argument& arg, ParsedCommandLine& out) {
  std::uint64_t n = 0;
  const auto [ptr, ec] = std::from_chars(arg.value.data(), arg.value.data() + arg.value.size(), n);
  if (ec != std::errc() || ptr != arg.value.data() + arg.value.size() || n < 1 || n > kMaxRepeat) {
    cli_error(arg, "not a count from 1 to " + std::to_string(kMaxRepeat));
  }
  out.history.repeat = static_cast<std::uint32_t>(n);
}

void parse_eta(const Argument& arg, RunOptions& run) {
  static const std::vector<std::string> kChoices = {"never", "always", "auto"};
  if (std::find(kChoices.begin(), kChoices.end(), arg.value) == kChoices.end()) {
    cli_error(arg, "not one of never, always, auto");
  }
  run.status_line = arg.value != "never";
  run.status_line_forced = arg.value == "always";
}

// One option of `sluice run` itself (not a job option): a value-taking one may also be given as "--name VALUE";
// one that takes none refuses "--name=x". apply() throws UserError through cli_error on a bad value.
struct RunOption {
  std::string_view name;
  bool takes_value;
  void (*apply)(const Argument& arg, ParsedCommandLine& out);
};

// The single list of run's own options (their usage text is in cli/run_command.cpp). --override, --cap-size and
// --cap-runtime are stored and applied after the job files (job/run_overrides.h).
constexpr RunOption kRunOptions[] = {
    {"output-format", true, [](const Argument& a, ParsedCommandLine& out) { parse_output_formats(a, out.run); }},
    {"output", true,
     [](const Argument& a, ParsedCommandLine& out) {
       if (a.value.empty()) cli_error(a, "value missing; use --output=FILE");
       out.run.output_path = a.value;
     }},
    {"allow-destructive", false, [](const Argument&, ParsedCommandLine& out) { out.run.allow_destructive = true; }},
    {"parse-only", false, [](const Argument&, ParsedCommandLine& out) { out.parse_only = true; }},
    {"help", false, [](const Argument&, ParsedCommandLine& out) { out.show_help = true; }},
    {"cmdhelp", true,
     [](const Argument& a, ParsedCommandLine& out) { out.cmdhelp = a.value.empty() ? "all" : a.value; }},
    {"status-interval", true, [](const Argument& a, ParsedCommandLine& out) { parse_status_interval(a, out.run); }},
    {"interval-log", true,
     [](const Argument& a, ParsedCommandLine& out) {
       if (a.value.empty()) cli_error(a, "value missing; use --interval-log=FILE");
       out.interval_log = a.value;
     }},
    {"metrics-file", true,
     [](const Argument& a, ParsedCommandLine& out) {
       if (a.value.empty()) cli_error(a, "value missing; use --metrics-file=FILE.prom");
       out.metrics_file = a.value;
     }},
    {"no-status", false, [](const Argument&, ParsedCommandLine& out) { out.run.status_line = false; }},
    {"eta", true, [](const Argument& a, ParsedCommandLine& out) { parse_eta(a, out.run); }},
    {"showcmd", false, [](const Argument&, ParsedCommandLine& out) { out.showcmd = true; }},
    {"override", true,
     [](const Argument& a, ParsedCommandLine& out) { parse_run_override(a.name, a.value, out.overrides); }},
    {"cap-size", true,
     [](const Argument& a, ParsedCommandLine& out) { parse_run_override(a.name, a.value, out.overrides); }},
    {"cap-runtime", true,
     [](const Argument& a, ParsedCommandLine& out) { parse_run_override(a.name, a.value, out.overrides); }},
    {"save", false, [](const Argument&, ParsedCommandLine& out) { out.history.save = true; }},
    {"label", true,
     [](const Argument& a, ParsedCommandLine& out) {
       parse_history_text(a, out.history.label);
       out.history.save = true;
     }},
    {"db", true,
     [](const Argument& a, ParsedCommandLine& out) {
       parse_history_text(a, out.history.db);
       out.history.save = true;
     }},
    {"repeat", true, [](const Argument& a, ParsedCommandLine& out) { parse_repeat(a, out); }},
};

const RunOption* find_run_option(std::string_view name) {
  for (const RunOption& option : kRunOptions) {
    if (option.name == name) return &option;
  }
  return nullptr;
}

// run's own options, then fio's global options (which run takes too): the names "did you mean" chooses from.
const std::vector<std::string>& run_level_names() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names;
    for (const RunOption& option : kRunOptions) names.emplace_back(option.name);
    for (const std::string& name : fio_global_option_names()) names.push_back(name);
    return names;
  }();
  return kNames;
}

bool takes_value(std::string_view name) {
  const RunOption* option = find_run_option(name);
  return (option != nullptr && option->takes_value) || fio_global_option_takes_value(name);
}

void apply_run_option(const Argument& arg, ParsedCommandLine& out) {
  if (is_fio_global(arg.name)) {
    apply_fio_global_option(arg.name, arg.value, arg.has_value, out.run);
    out.fio_globals.push_back("--" + arg.name + (arg.has_value ? "=" + arg.value : ""));
    return;
  }
  const RunOption* option = find_run_option(arg.name);
  if (option == nullptr) return;
  if (!option->takes_value && arg.has_value) cli_error(arg, "takes no value");
  option->apply(arg, out);
}

[[noreturn]] void unknown_cli_option(const Argument& arg) {
  std::vector<std::string> names = run_level_names();
  const std::string job_nearest = nearest_option(arg.name);
  if (!job_nearest.empty()) names.push_back(job_nearest);
  names.push_back("name");
  const std::string nearest = detail::nearest_of(arg.name, names);
  cli_error(arg, "unknown option" + (nearest.empty() ? std::string() : "; did you mean --" + nearest + "?"));
}

void apply_job_argument(JobSpec& job, const Argument& arg) {
  const OptionDef* def = find_option(arg.name);
  if (def == nullptr) unknown_cli_option(arg);
  if (!arg.has_value && !def->flag) cli_error(arg, "value missing; use --" + arg.name + "=VALUE");
  apply_option(job, arg.name, arg.value, SourcePos{});
}

bool is_option(std::string_view arg) { return arg.size() > 2 && arg.substr(0, 2) == "--"; }

// fio applies kb_base before the sizes of the same job whatever their order; so does sluice: the scope's
// kb_base (globals, or one --name job) is applied first.
void apply_scope_kb_base(JobSpec& job, const std::vector<std::string>& args, std::size_t from) {
  for (std::size_t i = from; i < args.size(); ++i) {
    if (!is_option(args[i])) continue;
    const Argument arg = split_argument(args[i]);
    if (arg.name == "name") return;
    if (arg.name == "kb_base" && arg.has_value) apply_job_argument(job, arg);
  }
}

}  // namespace

std::vector<RunOptions::OutputFormat> output_formats_of(const std::vector<std::string>& names) {
  using Format = RunOptions::OutputFormat;
  std::vector<Format> formats;
  for (const std::string& name : names) {
    const Format format = name == "json+"   ? Format::kJsonPlus
                          : name == "json"  ? Format::kJson
                          : name == "terse" ? Format::kTerse
                                            : Format::kNormal;
    if (std::find(formats.begin(), formats.end(), format) == formats.end()) formats.push_back(format);
  }
  if (std::find(formats.begin(), formats.end(), Format::kJsonPlus) != formats.end()) {
    formats.erase(std::remove(formats.begin(), formats.end(), Format::kJson), formats.end());
  }
  return formats;
}

void refuse_fio_global_options(const ParsedCommandLine& parsed, std::string_view command) {
  if (parsed.fio_globals.empty()) return;
  throw UserError(parsed.fio_globals.front() + ": one of fio's global options, which sluice run (and the fio link) "
                  "takes; sluice " + std::string(command) + " does not");
}

bool is_run_option(std::string_view name) {
  const auto& names = run_level_names();
  return name == "name" || std::find(names.begin(), names.end(), name) != names.end();
}

ParsedCommandLine parse_run_command_line(const std::vector<std::string>& given) {
  const std::vector<std::string> args = expand_fio_profile(given);
  ParsedCommandLine out;
  bool global_options = false;
  bool positional_only = false;
  apply_scope_kb_base(out.globals, args, 0);
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& text = args[i];
    if (positional_only || text.empty() || text[0] != '-' || text == "-") {
      out.job_files.push_back(text);
      continue;
    }
    if (text == "--") {
      positional_only = true;
      continue;
    }
    if (text == "-h") {
      out.show_help = true;
      continue;
    }
    if (!is_option(text)) throw UserError(text + ": unknown option; options look like --name=value");
    Argument arg = split_argument(text);
    const auto& run_names = run_level_names();
    if (std::find(run_names.begin(), run_names.end(), arg.name) != run_names.end()) {
      if (!arg.has_value && takes_value(arg.name) && i + 1 < args.size() && !is_option(args[i + 1])) {
        arg.value = args[++i];
        arg.has_value = true;
      }
      if (!arg.has_value && takes_value(arg.name) && arg.name != "cmdhelp" && !is_fio_global(arg.name)) {
        cli_error(arg, "value missing; use --" + arg.name + "=VALUE");
      }
      apply_run_option(arg, out);
      continue;
    }
    if (arg.name == "name") {
      if (arg.value.empty()) cli_error(arg, "value missing; use --name=JOBNAME");
      JobSpec job = out.globals;
      job.where = SourcePos{};
      apply_scope_kb_base(job, args, i + 1);
      apply_job_argument(job, arg);
      out.jobs.push_back(std::move(job));
      continue;
    }
    apply_job_argument(out.jobs.empty() ? out.globals : out.jobs.back(), arg);
    if (out.jobs.empty()) global_options = true;
  }
  if (!out.job_files.empty() && names_fio_profile(given)) {
    throw UserError(out.job_files.front() + ": a --profile runs the profile's own jobs; job files cannot be added "
                    "to it");
  }
  if (out.jobs.empty() && global_options && out.job_files.empty()) {
    JobSpec job = out.globals;
    job.name = "sluice";
    out.jobs.push_back(std::move(job));
  }
  for (JobSpec& job : out.jobs) detail::finish_parsed_job(job);
  if (const std::optional<FioActProfile> act = fio_act_profile(given)) {
    for (JobSpec& job : out.jobs) {
      job.act_slice_ns = act->slice_ns;
      job.act_duration_ns = act->duration_ns;
    }
  }
  return out;
}

}  // namespace sluice
