// The system calls of a lab: see lab/lab_system.h.
#include "lab/lab_system.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <linux/loop.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "common/durable_files.h"
#include "common/error.h"
#include "observe/lab_resources.h"

namespace sluice {
namespace {

// In a child just forked: default signal dispositions and an empty mask, so the program starts as from a shell.
void reset_signals_in_child() {
  for (int s = 1; s < NSIG; ++s) ::signal(s, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
}

void close_from(int first) {
  const long max = ::sysconf(_SC_OPEN_MAX);
  for (int fd = first; fd < (max > 0 && max < 65536 ? max : 65536); ++fd) ::close(fd);
}

std::vector<char*> c_argv(std::vector<std::string>& args) {
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  return argv;
}

}  // namespace

pid_t spawn_detached(const std::vector<std::string>& argv, const std::string& log,
                     const std::function<bool()>& before_exec) {
  std::vector<std::string> args = argv;
  std::vector<char*> c = c_argv(args);
  const pid_t pid = ::fork();
  if (pid < 0) throw UserError("lab: cannot start the daemon: fork: " + errno_text());
  if (pid == 0) {
    if (!before_exec()) ::_exit(126);
    reset_signals_in_child();
    ::setsid();
    const int in = ::open("/dev/null", O_RDONLY);
    const int out = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (in < 0 || out < 0) ::_exit(126);
    ::dup2(in, STDIN_FILENO);
    ::dup2(out, STDOUT_FILENO);
    ::dup2(out, STDERR_FILENO);
    close_from(3);
    ::execv(c[0], c.data());
    ::_exit(127);
  }
  return pid;
}

int run_tool(const std::vector<std::string>& argv, std::string& output, std::chrono::seconds timeout) {
  std::vector<std::string> args = argv;
  std::vector<char*> c = c_argv(args);
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return 127;
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return 127;
  }
  if (pid == 0) {
    reset_signals_in_child();
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // a killed lab up takes its mkfs with it
    const int in = ::open("/dev/null", O_RDONLY);
    if (in >= 0) ::dup2(in, STDIN_FILENO);
    ::dup2(fds[1], STDOUT_FILENO);
    ::dup2(fds[1], STDERR_FILENO);
    ::execvp(c[0], c.data());
    ::_exit(127);
  }
  ::close(fds[1]);
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  bool killed = false;
  char buffer[4096];
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0 && !killed) {
      ::kill(pid, SIGKILL);
      killed = true;
    }
    pollfd p{fds[0], POLLIN, 0};
    if (::poll(&p, 1, killed ? 1000 : static_cast<int>(std::min<long>(left.count(), 1000))) < 0 && errno != EINTR)
      break;
    if (p.revents == 0) continue;
    const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
    if (n <= 0) break;
    output.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (killed || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

std::string find_tool(const std::string& name) {
  std::string dirs = std::getenv("PATH") ? std::getenv("PATH") : "";
  dirs += ":/sbin:/usr/sbin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const std::size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string dir = dirs.substr(start, end - start);
    std::string path = (dir.empty() ? "." : dir) + "/" + name;
    if (::access(path.c_str(), X_OK) == 0) return path;
    start = end + 1;
  }
  return "";
}

std::string attach_loop_device(const std::string& file, bool& direct_io) {
  const int control = ::open("/dev/loop-control", O_RDWR | O_CLOEXEC);
  if (control < 0) throw UserError("lab: /dev/loop-control: " + errno_text());
  const int file_fd = ::open(file.c_str(), O_RDWR | O_DIRECT | O_CLOEXEC);
  if (file_fd < 0) {
    const std::string why = errno_text();
    ::close(control);
    throw UserError(fmt::format("lab: {}: cannot open the daemon's file: {}", file, why));
  }
  std::string why = "no free loop device";
  std::string device;
  for (int attempt = 0; attempt < 20 && device.empty(); ++attempt) {
    const int n = ::ioctl(control, LOOP_CTL_GET_FREE);
    if (n < 0) {
      why = "LOOP_CTL_GET_FREE: " + errno_text();
      break;
    }
    const std::string path = "/dev/loop" + std::to_string(n);
    const int loop_fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (loop_fd < 0) {
      why = path + ": " + errno_text();
      std::this_thread::sleep_for(std::chrono::milliseconds(10));  // the node may not exist yet
      continue;
    }
    loop_config config{};
    config.fd = static_cast<__u32>(file_fd);
    config.info.lo_flags = LO_FLAGS_DIRECT_IO;
    std::strncpy(reinterpret_cast<char*>(config.info.lo_file_name), file.c_str(), LO_NAME_SIZE - 1);
    int rc = ::ioctl(loop_fd, LOOP_CONFIGURE, &config);
    if (rc != 0 && (errno == EINVAL || errno == ENOTTY)) {  // before Linux 5.8
      rc = ::ioctl(loop_fd, LOOP_SET_FD, file_fd);
      if (rc == 0) ::ioctl(loop_fd, LOOP_SET_DIRECT_IO, 1UL);
    }
    if (rc == 0) {
      device = path;
    } else {
      why = path + ": " + errno_text();  // EBUSY: another process took it first; try the next free one
    }
    ::close(loop_fd);
    if (rc != 0 && errno != EBUSY) break;
  }
  ::close(file_fd);
  ::close(control);
  if (device.empty()) throw UserError("lab: cannot attach a loop device: " + why);
  direct_io = false;
  for (const LoopDeviceInfo& loop : attached_loop_devices()) {
    if (loop.device == device) direct_io = loop.direct_io;
  }
  return device;
}

std::string detach_loop_device(const std::string& device) {
  const int fd = ::open(device.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) return device + ": " + errno_text();
  std::string why;
  for (int attempt = 0; attempt < 50; ++attempt) {
    if (::ioctl(fd, LOOP_CLR_FD, 0) == 0 || errno == ENXIO) {
      why.clear();
      break;
    }
    why = device + ": LOOP_CLR_FD: " + errno_text();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // EBUSY while an unmount settles
  }
  ::close(fd);
  return why;
}

bool signal_and_wait(pid_t pid, std::uint64_t start_ticks, int signal, std::chrono::milliseconds wait) {
  if (!process_is(pid, start_ticks)) {
    ::waitpid(pid, nullptr, WNOHANG);
    return true;
  }
  ::kill(pid, signal);
  const auto deadline = std::chrono::steady_clock::now() + wait;
  while (std::chrono::steady_clock::now() < deadline) {
    ::waitpid(pid, nullptr, WNOHANG);  // our child (a failed lab up): reaped; anyone else's: ECHILD
    if (!process_is(pid, start_ticks)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

}  // namespace sluice
