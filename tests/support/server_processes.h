#pragma once
// Servers a test starts as child processes (fio's `fio --server`, or any command, e.g. one run in a network
// namespace), each in its own process group, which is killed (SIGKILL) and reaped when the object goes, also
// when an assertion returned early.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "support/loopback_port.h"

namespace sluice::testing {

class ServerProcesses {
 public:
  ServerProcesses() = default;
  ServerProcesses(const ServerProcesses&) = delete;
  ServerProcesses& operator=(const ServerProcesses&) = delete;
  ~ServerProcesses() {
    for (pid_t pid : pids_) {
      ::kill(-pid, SIGKILL);
      ::waitpid(pid, nullptr, 0);
    }
  }

  // Starts argv[0] (looked up in PATH) with its arguments in `cwd`, stdin and output on /dev/null.
  pid_t spawn(const std::vector<std::string>& argv, const std::string& cwd) {
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::setpgid(0, 0);
      const int null_fd = ::open("/dev/null", O_RDWR);
      ::dup2(null_fd, 0);
      ::dup2(null_fd, 1);
      ::dup2(null_fd, 2);
      if (::chdir(cwd.c_str()) != 0) ::_exit(126);
      std::vector<std::string> copy = argv;
      std::vector<char*> args;
      args.reserve(copy.size() + 1);
      for (std::string& a : copy) args.push_back(a.data());
      args.push_back(nullptr);
      ::execvp(args[0], args.data());
      ::_exit(127);
    }
    if (pid > 0) pids_.push_back(pid);
    return pid;
  }

  // Waits at most 10 s until `host`:`port` accepts connections; false (and a test failure) if it does not.
  static bool wait_until_accepting(const std::string& host, std::uint16_t port) {
    using namespace std::chrono_literals;
    for (int i = 0; i < 200 && !accepts_connections(host, port); ++i) std::this_thread::sleep_for(50ms);
    const bool up = accepts_connections(host, port);
    EXPECT_TRUE(up) << "no server accepts connections on " << host << "," << port;
    return up;
  }

  // `PROGRAM --server=HOST,PORT` (fio 3.33, or sluice's binary) on a free port of `host`, running its jobs in
  // `cwd`; returns HOST,PORT once it accepts connections.
  std::string start_server(const std::string& program, const std::string& host, const std::string& cwd) {
    const std::uint16_t port = unused_port(host);
    std::string address = host + "," + std::to_string(port);
    spawn({program, "--server=" + address}, cwd);
    wait_until_accepting(host, port);
    return address;
  }

  // `fio --server=HOST,PORT` (fio 3.33): start_server("fio", ...).
  std::string start_fio(const std::string& host, const std::string& cwd) { return start_server("fio", host, cwd); }

 private:
  std::vector<pid_t> pids_;
};

}  // namespace sluice::testing
