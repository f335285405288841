#pragma once
// Runs a program (build/sluice by default) as a child process and captures its stdout, stderr and exit
// status; optionally sends a signal after a delay. For end-to-end tests only: blocking, no threads.
// stdin is /dev/null. The child is killed (SIGKILL) when it outlives the timeout, so a hang fails the
// test instead of hanging the suite.
//
// A signal is sent no earlier than signal_after and, for a signal that can be caught, only once the child has
// installed its handler (/proc/PID/status SigCgt): on a busy machine a fixed delay can end before the program
// has started, and the signal would then kill it by its default action instead of testing how it stops.
// signal_when waits for an event too (a line printed, a file written: what shows the program is doing what the
// test interrupts); better than a guessed delay.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sluice::testing {

struct RunOutput {
  std::string out;
  std::string err;
  int exit_code = -1;   // -1 when killed by a signal
  int term_signal = 0;  // the signal that ended the child, 0 if it exited
  bool timed_out = false;
  std::chrono::milliseconds elapsed{0};
  bool signalled = false;                     // the signal of RunOptions was sent
  std::chrono::milliseconds after_signal{0};  // from sending the signal to the child's end (when signalled)
  bool started = true;                        // false: pipe or fork failed (an exec failure is exit_code 127)
};

struct RunOptions {
  std::string program = SLUICE_BINARY;                    // a path, or a name looked up in PATH (e.g. "fio")
  std::optional<std::chrono::milliseconds> signal_after;  // send `signal` no earlier than this after the start
  int signal = SIGINT;
  bool signal_when_caught = true;  // wait for the child's handler of `signal` (see above); false: the delay only
  // When set: send `signal` once this is true (and signal_after, if also set, has passed). Called every 10 ms
  // with the output so far.
  std::function<bool(const RunOutput&)> signal_when;
  std::chrono::milliseconds timeout{20000};
  bool stderr_to_terminal = false;  // the child's stderr is a pseudo-terminal (to see the live status line)
  std::vector<std::pair<std::string, std::string>> environment;  // set in the child (e.g. SLUICE_KNOB_ROOT)
  std::string cwd;  // the child's working directory (files it writes there, e.g. verify_dump's); empty = ours
};

namespace detail {

inline void drain(int& fd, std::string& into) {
  char buf[65536];
  const ssize_t n = ::read(fd, buf, sizeof buf);
  if (n > 0) {
    into.append(buf, static_cast<std::size_t>(n));
  } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
    ::close(fd);
    fd = -1;
  }
}

// fds[0]: the pseudo-terminal's master (read side), fds[1]: its slave, both close-on-exec.
inline bool open_terminal(int fds[2]) {
  const int master = ::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (master < 0) return false;
  if (::grantpt(master) != 0 || ::unlockpt(master) != 0) return ::close(master), false;
  const char* name = ::ptsname(master);
  const int slave = name ? ::open(name, O_RDWR | O_NOCTTY | O_CLOEXEC) : -1;
  if (slave < 0) return ::close(master), false;
  fds[0] = master;
  fds[1] = slave;
  return true;
}

// True when /proc/PID/status shows a handler installed for `signal` (the SigCgt mask, bit signal - 1).
inline bool catches_signal(pid_t pid, int signal) {
  const std::string path = "/proc/" + std::to_string(pid) + "/status";
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) text.append(buf, static_cast<std::size_t>(n));
  ::close(fd);
  const std::size_t at = text.find("\nSigCgt:");
  if (at == std::string::npos) return false;
  const unsigned long long mask = std::strtoull(text.c_str() + at + 8, nullptr, 16);
  return signal >= 1 && signal <= 64 && ((mask >> (signal - 1)) & 1u) != 0;
}

[[noreturn]] inline void exec_child(const RunOptions& options, const std::vector<std::string>& args, int out_fd,
                                    int err_fd) {
  // Handlers this process installed would show in SigCgt until exec resets them: reset them now, so a SigCgt
  // bit means the new program's own handler.
  for (int s = 1; s < NSIG; ++s) {
    struct sigaction old {};
    if (::sigaction(s, nullptr, &old) == 0 && old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN) {
      ::signal(s, SIG_DFL);
    }
  }
  const int null_fd = ::open("/dev/null", O_RDONLY);
  if (null_fd >= 0) ::dup2(null_fd, STDIN_FILENO);
  ::dup2(out_fd, STDOUT_FILENO);
  ::dup2(err_fd, STDERR_FILENO);
  for (const auto& [name, value] : options.environment) ::setenv(name.c_str(), value.c_str(), 1);
  if (!options.cwd.empty() && ::chdir(options.cwd.c_str()) != 0) ::_exit(126);
  std::vector<char*> argv;
  std::string program = options.program;
  argv.push_back(program.data());
  std::vector<std::string> copy = args;
  for (std::string& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  ::execvp(program.c_str(), argv.data());
  ::_exit(127);
}

}  // namespace detail

inline RunOutput run_binary(const std::vector<std::string>& args, const RunOptions& options = {}) {
  using Clock = std::chrono::steady_clock;
  RunOutput result;
  int out_pipe[2];
  int err_pipe[2] = {-1, -1};
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) return result.started = false, result;
  const bool err_ok = options.stderr_to_terminal ? detail::open_terminal(err_pipe) : ::pipe2(err_pipe, O_CLOEXEC) == 0;
  if (!err_ok) {
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    return result.started = false, result;
  }
  const Clock::time_point start = Clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) detail::exec_child(options, args, out_pipe[1], err_pipe[1]);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  if (pid < 0) {
    ::close(out_pipe[0]);
    ::close(err_pipe[0]);
    return result.started = false, result;
  }
  int fds[2] = {out_pipe[0], err_pipe[0]};
  const bool wait_for_handler = options.signal_when_caught && options.signal != SIGKILL && options.signal != SIGSTOP;
  Clock::time_point signalled_at;
  while (fds[0] >= 0 || fds[1] >= 0) {
    const auto now = Clock::now();
    if (!result.signalled && (options.signal_after || options.signal_when) &&
        (!options.signal_after || now - start >= *options.signal_after) &&
        (!options.signal_when || options.signal_when(result)) &&
        (!wait_for_handler || detail::catches_signal(pid, options.signal))) {
      ::kill(pid, options.signal);
      result.signalled = true;
      signalled_at = now;
    }
    if (now - start >= options.timeout) {
      ::kill(pid, SIGKILL);
      result.timed_out = true;
      break;
    }
    pollfd p[2] = {{fds[0], POLLIN, 0}, {fds[1], POLLIN, 0}};
    if (::poll(p, 2, 10) < 0 && errno != EINTR) break;
    if (fds[0] >= 0 && (p[0].revents & (POLLIN | POLLHUP | POLLERR))) detail::drain(fds[0], result.out);
    if (fds[1] >= 0 && (p[1].revents & (POLLIN | POLLHUP | POLLERR))) detail::drain(fds[1], result.err);
  }
  for (int fd : fds) {
    if (fd >= 0) ::close(fd);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  const Clock::time_point end = Clock::now();
  result.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(end - start);
  if (result.signalled) result.after_signal = std::chrono::duration_cast<std::chrono::milliseconds>(end - signalled_at);
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.term_signal = WTERMSIG(status);
  }
  return result;
}

// True when `name` is an executable found in PATH (for tools such as fio, losetup, mkfs.ext4).
inline bool have_program(const std::string& name) {
  RunOptions o;
  o.program = "sh";
  o.timeout = std::chrono::milliseconds(5000);
  return run_binary({"-c", "command -v " + name + " >/dev/null 2>&1"}, o).exit_code == 0;
}

}  // namespace sluice::testing
