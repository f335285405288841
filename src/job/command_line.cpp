// fio's command-line form of jobs: job options only as --opt=value (or --flag), --name=JOB, job files.
#include "job/command_line.h"

#include "common/nearest.h"
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

[[noreturn]] void cli_error(const Argument& arg, std::string_view what) {
  std::string text = "--" + arg.name;
  if (arg.has_value) text += "=" + arg.value;
  throw UserError(text + ": " + std::string(what));
}

[[noreturn]] void unknown_cli_option(const Argument& arg) {
  std::vector<std::string> names = {"name"};
  const std::string job_nearest = nearest_option(arg.name);
  if (!job_nearest.empty()) names.push_back(job_nearest);
  const std::string nearest = nearest_of(arg.name, names);
  cli_error(arg, nearest.empty() ? "unknown option (no job option, nor one of the command's own; sluice run --help "
                                   "lists the job options)"
                                 : "unknown option; did you mean --" + nearest + "?");
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

bool is_job_command_line_option(std::string_view name) { return name == "name"; }

JobCommandLine parse_job_command_line(const std::vector<std::string>& args) {
  JobCommandLine out;
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
    if (!is_option(text)) throw UserError(text + ": unknown option; options look like --name=value");
    const Argument arg = split_argument(text);
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
  if (out.jobs.empty() && global_options && out.job_files.empty()) {
    JobSpec job = out.globals;
    job.name = "sluice";
    out.jobs.push_back(std::move(job));
  }
  for (JobSpec& job : out.jobs) detail::finish_parsed_job(job);
  return out;
}

}  // namespace sluice
