#pragma once
// build/sluice as child processes that a test starts, kills at a chosen moment and reaps: for the tests of
// what a killed or interrupted run leaves behind (tests/common/it_leftovers_test, it_signals_test). Every
// child still running when the object goes away is killed (SIGKILL) and reaped, so none outlives its test,
// also when an assertion returned early.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace sluice::testing {

class SluiceChildren {
 public:
  using Environment = std::vector<std::pair<std::string, std::string>>;

  explicit SluiceChildren(Environment environment) : environment_(std::move(environment)) {}
  SluiceChildren(const SluiceChildren&) = delete;
  SluiceChildren& operator=(const SluiceChildren&) = delete;
  ~SluiceChildren() {
    const std::vector<pid_t> left = children_;
    for (const pid_t pid : left) stop(pid, SIGKILL);
  }

  // Starts build/sluice ARGS with the environment given at construction, stdin and output on /dev/null.
  // Returns its pid (-1 when fork failed).
  pid_t spawn(const std::vector<std::string>& args) {
    const pid_t pid = ::fork();
    if (pid > 0) children_.push_back(pid);
    if (pid != 0) return pid;
    const int null_fd = ::open("/dev/null", O_RDWR);
    ::dup2(null_fd, STDIN_FILENO);
    ::dup2(null_fd, STDOUT_FILENO);
    ::dup2(null_fd, STDERR_FILENO);
    for (const auto& [name, value] : environment_) ::setenv(name.c_str(), value.c_str(), 1);
    std::vector<std::string> copy = args;
    std::vector<char*> argv = {const_cast<char*>(SLUICE_BINARY)};
    for (std::string& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(SLUICE_BINARY, argv.data());
    ::_exit(127);
  }

  // Sends `signal` to the child and reaps it; returns the wait status. A child that outlives the signal by
  // 10 s (a caught signal must end it well before) is killed and the test fails.
  int stop(pid_t pid, int signal) {
    if (pid <= 0) return -1;  // fork failed: never kill(-1) or kill(0)
    std::erase(children_, pid);
    ::kill(pid, signal);
    int status = 0;
    for (int i = 0; i < 1000; ++i) {
      const pid_t r = ::waitpid(pid, &status, WNOHANG);
      if (r == pid) return status;
      if (r < 0 && errno != EINTR) return -1;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
    ADD_FAILURE() << "the child outlived signal " << signal << " by 10 s";
    return status;
  }

  // Polls (every 10 ms) until `ready` or the bound; true when it became ready.
  template <typename Ready>
  static bool wait_for(Ready ready, std::chrono::milliseconds bound = std::chrono::milliseconds(8000)) {
    const auto end = std::chrono::steady_clock::now() + bound;
    while (std::chrono::steady_clock::now() < end) {
      if (ready()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return ready();
  }

  const Environment& environment() const { return environment_; }

 private:
  Environment environment_;
  std::vector<pid_t> children_;  // started and not yet reaped
};

}  // namespace sluice::testing
