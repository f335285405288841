#pragma once
// fio's exec_prerun / exec_postrun: a shell command run by the job's thread before its I/O and after it,
// with its output (stdout and stderr) in JOBNAME.prerun.txt / JOBNAME.postrun.txt in the current directory.
#include <string>

namespace sluice {

// Runs `command` with /bin/sh -c, stdout and stderr into `output_path` (truncated), and waits for it.
// Returns "" when it exited with status 0, else what went wrong, naming `option` and the output file:
// "exec_prerun `false` exited with status 1 (its output is in x.prerun.txt)". Never throws.
std::string run_exec_hook(const std::string& option, const std::string& command, const std::string& output_path);

}  // namespace sluice
