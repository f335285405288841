#pragma once
// fio's command-line form for `sluice run`: options before the first --name are global and apply to every
// job; each --name=X starts a new job that starts from the globals; later options apply to the current job.
// Run-level options (--output-format, --output, --allow-destructive, ...) are separated out.
#include <string>
#include <string_view>
#include <vector>

#include "job/history_choice.h"
#include "job/job_spec.h"
#include "job/run_overrides.h"

namespace sluice {

struct ParsedCommandLine {
  RunOptions run;
  // One per --name (numjobs not yet expanded). Job options given without any --name (and without job files)
  // make one job named "sluice", so `sluice run --rw=randread --size=1g` works like fio with --name.
  std::vector<JobSpec> jobs;
  JobSpec globals;                      // options before the first --name; job files start from these
  std::vector<std::string> job_files;   // positional arguments: fio job files
  bool show_help = false;               // --help
  std::string cmdhelp;                  // --cmdhelp=OPTION
  bool parse_only = false;              // --parse-only
  bool showcmd = false;                 // --showcmd: print the job files' jobs as command lines
  RunOverrides overrides;               // --override, --cap-size, --cap-runtime (applied after the files)
  HistoryChoice history;                // --save, --label, --db, --repeat
  std::vector<std::string> fio_globals; // fio's global options given (--minimal, --readonly, ...), as given
  std::string interval_log;             // --interval-log=FILE: one JSON line per job per interval
  std::string metrics_file;             // --metrics-file=FILE: OpenMetrics text, rewritten every interval
};

// Parses the arguments after "run". Throws UserError with the option name and value on bad input.
ParsedCommandLine parse_run_command_line(const std::vector<std::string>& args);

// The formats named in an --output-format list (already checked against normal, json, json+), in order and
// without repeats; json+ replaces json (it is json with the histogram bins added: one document, not two).
std::vector<RunOptions::OutputFormat> output_formats_of(const std::vector<std::string>& names);

// For commands other than `sluice run` that take job options: throws UserError naming the first of fio's
// global options given (they only mean something to `sluice run` and the fio link).
void refuse_fio_global_options(const ParsedCommandLine& parsed, std::string_view command);

// True for the run-level options (--output-format, --parse-only, --eta, ...) and --name, which are not job
// options but which parse_run_command_line takes; for commands that pass arguments on to it.
bool is_run_option(std::string_view name);

}  // namespace sluice
