#pragma once
// Mounts tests/support/faultfs (a fault-injecting FUSE passthrough) over a backing directory for one test,
// and unmounts it (fusermount3 -u, bounded) when the test ends. usable() is false, with skip_reason() set,
// when faultfs was not built (no libfuse3), /dev/fuse cannot be opened or the mount does not appear in 20 s.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "support/machine_features.h"

namespace sluice::testing {

class FaultFsMount {
 public:
  // Mounts faultfs: `backing` (an existing directory) appears at `mountpoint` (created if missing) with
  // `faults` (faultfs --fault rules, e.g. "read:eio:at=65536"); injected faults are logged to `log`.
  FaultFsMount(const std::string& backing, const std::string& mountpoint, const std::vector<std::string>& faults,
               const std::string& log = "")
      : mountpoint_(mountpoint) {
#ifndef SLUICE_FAULTFS
    (void)backing, (void)faults, (void)log;
    reason_ = "faultfs was not built (libfuse3-dev missing: scripts/install-deps.sh --with-peers)";
#else
    if (const FeatureProbe& fuse = probe(Feature::kFuse); !fuse.available) {
      reason_ = fuse.reason;
      return;
    }
    ::mkdir(mountpoint.c_str(), 0755);
    struct stat parent {};
    if (::stat(mountpoint.c_str(), &parent) != 0) {
      reason_ = "cannot create " + mountpoint;
      return;
    }
    std::vector<std::string> args = {SLUICE_FAULTFS, backing, mountpoint};
    for (const std::string& f : faults) args.push_back("--fault=" + f);
    if (!log.empty()) args.push_back("--log=" + log);
    pid_ = ::fork();
    if (pid_ == 0) {
      const int null_fd = ::open("/dev/null", O_RDWR);
      ::dup2(null_fd, STDIN_FILENO);
      ::dup2(null_fd, STDOUT_FILENO);
      std::vector<char*> argv;
      for (std::string& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
      struct stat st {};
      if (::stat(mountpoint.c_str(), &st) == 0 && st.st_dev != parent.st_dev) {
        mounted_ = true;
        return;
      }
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        reason_ = "faultfs could not mount (exit " + std::to_string(WEXITSTATUS(status)) + ")";
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    reason_ = "faultfs did not mount in 20 s";
#endif
  }

  ~FaultFsMount() {
    if (mounted_) unmount();
    if (pid_ > 0) {
      // faultfs exits once unmounted; a stuck one is killed so no test hangs on it.
      for (int i = 0; i < 200 && ::waitpid(pid_, nullptr, WNOHANG) != pid_; ++i) {
        if (i == 100) ::kill(pid_, SIGKILL);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    }
  }
  FaultFsMount(const FaultFsMount&) = delete;
  FaultFsMount& operator=(const FaultFsMount&) = delete;

  bool usable() const { return mounted_; }
  const std::string& skip_reason() const { return reason_; }

 private:
  // fusermount3 -u, then a lazy unmount (-z) if a file is still open in the mount.
  void unmount() {
    for (const char* flag : {"-u", "-uz"}) {
      const pid_t pid = ::fork();
      if (pid == 0) {
        const int null_fd = ::open("/dev/null", O_RDWR);
        ::dup2(null_fd, STDOUT_FILENO);
        ::dup2(null_fd, STDERR_FILENO);
        ::execlp("fusermount3", "fusermount3", flag, mountpoint_.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
      }
      int status = 1;
      if (pid > 0) ::waitpid(pid, &status, 0);
      if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
    }
  }

  std::string mountpoint_;
  std::string reason_;
  pid_t pid_ = -1;
  bool mounted_ = false;
};

}  // namespace sluice::testing
