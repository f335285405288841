#pragma once
// Running one command as a child process (sluice scale's runs, sluice selftest's measurements) in its own
// process group, its stdout and stderr appended to a log file, timed (wall clock) and charged (user and system
// CPU from wait4's rusage: the child and every descendant it waited for, e.g. make's compilers).
#include <chrono>
#include <string>
#include <vector>

namespace sluice {

struct ChildRun {
  double wall_s = 0;
  double user_s = 0;
  double sys_s = 0;
  int exit_status = 0;  // the exit code; 127 when the program could not be started
  int term_signal = 0;  // the signal that ended it, 0 if it exited
  bool timed_out = false;
  bool interrupted = false;  // sluice was asked to stop (SIGINT/SIGTERM); the child was killed
  bool ok() const noexcept { return exit_status == 0 && term_signal == 0 && !timed_out && !interrupted; }
};

// Runs argv (argv[0] looked up in PATH), stdin /dev/null, stdout and stderr to log_fd. With a non-zero
// timeout, or when a stop is requested (run/stop_signal.h), the whole process group is killed (SIGTERM, then
// SIGKILL after 2 s). Throws UserError when fork fails.
ChildRun run_child(const std::vector<std::string>& argv, int log_fd, std::chrono::nanoseconds timeout);

// "exit status 3", "killed by signal 9 (Killed)", "timed out after the --timeout", "interrupted".
std::string describe_failure(const ChildRun& run);

}  // namespace sluice
