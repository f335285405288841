#pragma once
// A test's own lab (sluice lab up): a state directory of its own (SLUICE_STATE_DIR), a DIR to mount on, a
// model file, and a check that nothing of it is left (no mount, loop device, daemon or record). Whatever a
// failed test leaves is taken apart by the destructor, as a user would (sluice restore, sluice lab down).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace sluice::testing {

inline std::string file_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// One test's lab: a state directory, DIR, a model file (by default a fast one: mkfs takes well under a second
// on it).
class LabPlace {
 public:
  explicit LabPlace(const std::string& model_text = "read_time = 100us\n") {
    std::filesystem::create_directories(dir());
    std::ofstream(model()) << model_text;
  }
  ~LabPlace() {
    // Whatever a failed test left: take it apart the way a user would.
    if (!records().empty()) sluice({"restore"});
    sluice({"lab", "down", dir()});
  }
  LabPlace(const LabPlace&) = delete;
  LabPlace& operator=(const LabPlace&) = delete;

  std::string dir() const { return root_.file("dir"); }
  std::string model() const { return root_.file("fast.model"); }
  const std::string& state() const { return state_.path(); }

  RunOutput sluice(const std::vector<std::string>& args, RunOptions options = {}) const {
    options.environment.emplace_back("SLUICE_STATE_DIR", state_.path());
    if (options.timeout == RunOptions{}.timeout) options.timeout = std::chrono::milliseconds(30000);  // mkfs, restore
    return run_binary(args, options);
  }

  // The records in the state directory's labs/.
  std::vector<std::string> records() const {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(state_.path() + "/labs", ec)) {
      out.push_back(e.path().string());
    }
    return out;
  }

  // What is left of labs made here: mounts at DIR or under the state directory, loop devices over a file
  // there, processes whose command line names it, entries in labs/. Empty when nothing is.
  std::string leftovers() const {
    std::string left;
    std::ifstream mounts("/proc/self/mountinfo");
    std::string line;
    while (std::getline(mounts, line)) {
      if (line.find(" " + dir() + " ") != std::string::npos || line.find(state_.path()) != std::string::npos) {
        left += "mount: " + line + "\n";
      }
    }
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator("/sys/block", ec)) {
      const std::string backing = file_text(e.path().string() + "/loop/backing_file");
      if (backing.find(state_.path()) != std::string::npos) left += "loop: " + e.path().string() + " " + backing;
    }
    for (const auto& e : std::filesystem::directory_iterator("/proc", ec)) {
      const std::string name = e.path().filename().string();
      if (name.find_first_not_of("0123456789") != std::string::npos || name == std::to_string(::getpid())) continue;
      std::string cmdline = file_text(e.path().string() + "/cmdline");
      std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
      if (cmdline.find(state_.path()) != std::string::npos) left += "process " + name + ": " + cmdline + "\n";
    }
    for (const std::string& r : records()) left += "in the registry: " + r + "\n";
    return left;
  }

 private:
  TempDir root_;
  TempDir state_;
};

inline nlohmann::json lab_json(const RunOutput& r) {
  const std::optional<nlohmann::json> doc = parse_document(r.out);
  return doc ? (*doc)["sluice"]["lab"] : nlohmann::json();
}

}  // namespace sluice::testing
