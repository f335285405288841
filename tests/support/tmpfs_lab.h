#pragma once
// A lab test's place whose sluice state directory (and so the lab's backing file) lives on tmpfs (/dev/shm):
// a backing file on disk stalls under a small dirty limit (docs/lab.md, "A trap of the lab itself"). Takes the
// lab down and restores the knobs a test changed when it goes out of scope.
#include <linux/magic.h>
#include <stdlib.h>
#include <sys/statfs.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace sluice::testing {

class TmpfsLab {
 public:
  TmpfsLab() {
    std::filesystem::create_directories(dir());
    struct statfs fs {};
    char shm[] = "/dev/shm/sluice-lab-XXXXXX";
    if (::statfs("/dev/shm", &fs) == 0 && fs.f_type == TMPFS_MAGIC && ::mkdtemp(shm) != nullptr) state_ = shm;
  }
  ~TmpfsLab() {
    sluice({"lab", "down", dir()});
    sluice({"restore"});
    std::error_code ec;
    if (!state_.empty()) std::filesystem::remove_all(state_, ec);
  }
  TmpfsLab(const TmpfsLab&) = delete;
  TmpfsLab& operator=(const TmpfsLab&) = delete;

  std::string dir() const { return root_.file("dir"); }
  // A file of the test's own directory (a model file, say).
  std::string file(const std::string& name) const { return root_.file(name); }
  bool on_tmpfs() const { return !state_.empty(); }

  RunOutput sluice(const std::vector<std::string>& args) const {
    RunOptions options;
    options.environment.emplace_back("SLUICE_STATE_DIR", state_);
    options.timeout = std::chrono::milliseconds(60000);
    return run_binary(args, options);
  }

 private:
  TempDir root_;
  std::string state_;
};

}  // namespace sluice::testing
