#pragma once
// `sluice lab serve` as a test's child: the daemon mounted at DIR/mnt over DIR/backing, stopped at the end.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace sluice::testing {

inline dev_t device_of(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? st.st_dev : 0;
}

// `sluice lab serve MODEL DIR/mnt --backing=DIR/backing --size=16m` as a child; stopped (SIGTERM) at the end.
class ServedLab {
 public:
  ServedLab(const TempDir& dir, const std::string& model) : mount_(dir.file("mnt")), backing_(dir.file("backing")) {
    ::mkdir(mount_.c_str(), 0755);
    const dev_t parent = device_of(mount_);
    pid_ = ::fork();
    if (pid_ == 0) {
      const int null_fd = ::open("/dev/null", O_RDWR);
      ::dup2(null_fd, STDIN_FILENO);
      ::dup2(null_fd, STDOUT_FILENO);
      std::vector<std::string> args = {SLUICE_BINARY,           "lab",       "serve", model, mount_,
                                       "--backing=" + backing_, "--size=16m"};
      std::vector<char*> argv;
      for (std::string& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    for (int i = 0; i < 2000; ++i) {
      if (device_of(mount_) != parent) return;
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  ~ServedLab() { stop(); }
  ServedLab(const ServedLab&) = delete;
  ServedLab& operator=(const ServedLab&) = delete;

  bool mounted() const { return pid_ > 0; }
  int early_exit_code() const { return exit_code_; }
  std::string device() const { return mount_ + "/device"; }
  std::string stats() const { return mount_ + "/stats"; }
  // The daemon's record, parsed.
  nlohmann::json stats_json() const {
    std::ifstream in(stats());
    std::stringstream text;
    text << in.rdbuf();
    return nlohmann::json::parse(text.str());
  }
  const std::string& mount() const { return mount_; }
  const std::string& backing() const { return backing_; }

  // SIGTERM; the daemon unmounts and exits. Returns its exit code (-1: killed after 10 s).
  int stop() {
    if (pid_ <= 0) return exit_code_;
    ::kill(pid_, SIGTERM);
    int status = 0;
    for (int i = 0; i < 1000; ++i) {
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    std::system(("fusermount3 -uz " + mount_ + " 2>/dev/null").c_str());
    return exit_code_ = -1;
  }

 private:
  std::string mount_;
  std::string backing_;
  pid_t pid_ = -1;
  int exit_code_ = -1;
};

inline bool daemon_built() {
  const RunOutput r = run_binary({"lab", "serve", "ssd", "/nonexistent-lab-dir", "--backing=/nonexistent"});
  return r.err.find("built without libfuse3") == std::string::npos;
}

}  // namespace sluice::testing
