#include "common/child_run.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/error.h"
#include "common/stop_signal.h"

namespace sluice {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_of(const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; }

[[noreturn]] void exec_child(const std::vector<std::string>& argv, int log_fd) {
  ::setpgid(0, 0);
  const int null_fd = ::open("/dev/null", O_RDONLY);
  if (null_fd >= 0) ::dup2(null_fd, STDIN_FILENO);
  ::dup2(log_fd, STDOUT_FILENO);
  ::dup2(log_fd, STDERR_FILENO);
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  ::signal(SIGINT, SIG_DFL);
  ::signal(SIGTERM, SIG_DFL);
  ::execvp(args[0], args.data());
  const std::string message = "sluice: cannot run " + argv[0] + ": " + std::strerror(errno) + "\n";
  (void)!::write(STDERR_FILENO, message.data(), message.size());
  ::_exit(127);
}

// Waits until the child exits (its pidfd becomes readable), the deadline passes or a stop is requested.
// Returns false when it had to give up waiting.
bool wait_exit(int pidfd, pid_t pid, Clock::time_point deadline, bool has_deadline) {
  while (true) {
    if (stop_requested()) return false;
    int slice_ms = 100;
    if (has_deadline) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) return false;
      if (left < slice_ms) slice_ms = static_cast<int>(left);
    }
    if (pidfd >= 0) {
      pollfd p{pidfd, POLLIN, 0};
      if (::poll(&p, 1, slice_ms) > 0) return true;
    } else {
      // No pidfd (kernel before 5.3): peek without reaping.
      siginfo_t info{};
      if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid) {
        return true;
      }
      ::usleep(1000);
    }
  }
}

}  // namespace

ChildRun run_child(const std::vector<std::string>& argv, int log_fd, std::chrono::nanoseconds timeout) {
  ChildRun run;
  const Clock::time_point start = Clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) throw UserError(std::string("sluice: cannot fork: ") + std::strerror(errno));
  if (pid == 0) exec_child(argv, log_fd);
  ::setpgid(pid, pid);  // also here, so the group exists before any kill below
  const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  const bool exited = wait_exit(pidfd, pid, start + timeout, timeout.count() > 0);
  Clock::time_point end = Clock::now();
  if (!exited) {
    run.interrupted = stop_requested();
    run.timed_out = !run.interrupted;
    ::kill(-pid, SIGTERM);
    if (!wait_exit(pidfd, pid, Clock::now() + std::chrono::seconds(2), true)) ::kill(-pid, SIGKILL);
  }
  int status = 0;
  rusage usage{};
  while (::wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  if (pidfd >= 0) ::close(pidfd);
  run.wall_s = std::chrono::duration<double>(end - start).count();
  run.user_s = seconds_of(usage.ru_utime);
  run.sys_s = seconds_of(usage.ru_stime);
  if (WIFEXITED(status)) run.exit_status = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) run.term_signal = WTERMSIG(status);
  return run;
}

std::string describe_failure(const ChildRun& run) {
  if (run.interrupted) return "interrupted";
  if (run.timed_out) return "timed out (--timeout)";
  if (run.term_signal != 0) {
    return "killed by signal " + std::to_string(run.term_signal) + " (" + strsignal(run.term_signal) + ")";
  }
  if (run.exit_status == 127) return "exit status 127 (command not found or not executable)";
  return "exit status " + std::to_string(run.exit_status);
}

}  // namespace sluice
