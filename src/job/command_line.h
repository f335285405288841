#pragma once
// fio's command-line form of jobs, as `sluice run` passes it on after its own options (cli/run_command.cpp),
// and as the commands that take job options pass theirs: options before the first --name are global and
// apply to every job; each --name=X starts a new job that starts from the globals; later options apply to
// the current job. Positional arguments are fio job files.
#include <string>
#include <string_view>
#include <vector>

#include "job/job_spec.h"

namespace sluice {

struct JobCommandLine {
  // One per --name (numjobs not yet expanded). Job options given without any --name (and without job files)
  // make one job named "sluice", so `sluice run --rw=randread --size=1g` works like fio with --name.
  std::vector<JobSpec> jobs;
  JobSpec globals;                     // options before the first --name; job files start from these
  std::vector<std::string> job_files;  // positional arguments: fio job files
};

// Parses job options (only as --opt=value or --flag), --name and job files. Throws UserError with the option
// name and value on bad input, with the nearest job option for an unknown one.
JobCommandLine parse_job_command_line(const std::vector<std::string>& args);

// True for the names parse_job_command_line takes besides the job options (--name); for the command
// framework, which passes these on.
bool is_job_command_line_option(std::string_view name);

}  // namespace sluice
