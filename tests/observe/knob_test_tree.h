#pragma once
// A synthetic /proc/sys/vm and /sys/block/vda/queue in a temporary directory, and a KnobIo that follows the
// kernel's rules on it: writing one member of a ratio/bytes pair zeroes the other, 0 is refused for *_bytes,
// and writing a scheduler moves the brackets. Tests never touch the real /proc/sys.
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "common/error.h"
#include "observe/knobs.h"
#include "support/temp_dir.h"

namespace sluice::testing {

class KernelLikeIo : public FileKnobIo {
 public:
  void write(const std::string& path, const std::string& value) override {
    writes.emplace_back(path, value);
    const std::filesystem::path p(path);
    const std::string name = p.filename().string();
    const std::string dir = p.parent_path().string();
    if (name.ends_with("_bytes") && value == "0") throw UserError("write " + path + ": Invalid argument");
    if (name == "scheduler") {
      std::string text;
      for (const std::string& choice : scheduler_choices(read(path))) {
        text += (text.empty() ? "" : " ") + (choice == value ? "[" + choice + "]" : choice);
      }
      FileKnobIo::write(path, text);
      return;
    }
    FileKnobIo::write(path, value);
    if (name == "dirty_bytes") FileKnobIo::write(dir + "/dirty_ratio", "0");
    if (name == "dirty_ratio") FileKnobIo::write(dir + "/dirty_bytes", "0");
    if (name == "dirty_background_bytes") FileKnobIo::write(dir + "/dirty_background_ratio", "0");
    if (name == "dirty_background_ratio") FileKnobIo::write(dir + "/dirty_background_bytes", "0");
  }
  bool wrote(const std::string& path_suffix, const std::string& value) const {
    for (const auto& [path, v] : writes) {
      if (path.ends_with(path_suffix) && v == value) return true;
    }
    return false;
  }
  std::vector<std::pair<std::string, std::string>> writes;
};

class KnobTree {
 public:
  KnobTree() {
    roots.proc_root = dir.file("proc");
    roots.sys_root = dir.file("sys");
    journal = dir.file("state/knobs.journal");
    for (const auto& [name, value] : original_vm()) put(roots.proc_root + "/sys/vm/" + name, value);
    for (const auto& [name, value] : original_queue()) put(roots.sys_root + "/block/vda/queue/" + name, value);
  }

  static std::map<std::string, std::string> original_vm() {
    return {{"dirty_ratio", "20"},           {"dirty_background_ratio", "10"},   {"dirty_bytes", "0"},
            {"dirty_background_bytes", "0"}, {"dirty_expire_centisecs", "3000"}, {"dirty_writeback_centisecs", "500"}};
  }
  static std::map<std::string, std::string> original_queue() {
    return {{"scheduler", "[mq-deadline] kyber none"},
            {"wbt_lat_usec", "2000"},
            {"nr_requests", "256"},
            {"read_ahead_kb", "128"}};
  }

  std::string vm(const std::string& name) const { return get(roots.proc_root + "/sys/vm/" + name); }
  std::string queue(const std::string& name) const { return get(roots.sys_root + "/block/vda/queue/" + name); }
  void set_vm(const std::string& name, const std::string& value) { put(roots.proc_root + "/sys/vm/" + name, value); }

  // Every file holds its original text again (the scheduler with its brackets where they were).
  bool all_original() const {
    for (const auto& [name, value] : original_vm()) {
      if (vm(name) != value) return false;
    }
    for (const auto& [name, value] : original_queue()) {
      if (queue(name) != value) return false;
    }
    return true;
  }

  std::string journal_text() const { return get(journal); }
  bool journal_exists() const { return std::filesystem::exists(journal); }

  KnobSessionOptions options(uid_t euid = 0) {
    KnobSessionOptions o;
    o.journal_path = journal;
    o.roots = roots;
    o.io = io;
    o.euid = [euid] { return euid; };
    return o;
  }

  TempDir dir;
  KnobRoots roots;
  std::string journal;
  std::shared_ptr<KernelLikeIo> io = std::make_shared<KernelLikeIo>();

 private:
  static void put(const std::string& path, const std::string& value) {
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::ofstream(path) << value << "\n";
  }
  static std::string get(const std::string& path) {
    std::ifstream in(path);
    std::stringstream buffer;
    buffer << in.rdbuf();
    std::string text = buffer.str();
    while (!text.empty() && text.back() == '\n') text.pop_back();
    return text;
  }
};

}  // namespace sluice::testing
