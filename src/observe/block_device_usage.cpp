#include "observe/block_device_usage.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace sluice {
namespace {

namespace fs = std::filesystem;

std::string dev_string(dev_t dev) { return std::to_string(major(dev)) + ":" + std::to_string(minor(dev)); }

bool same_device(const std::string& source, dev_t dev) {
  struct stat st {};
  return source.starts_with("/dev/") && ::stat(source.c_str(), &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == dev;
}

}  // namespace

std::vector<BlockDeviceNode> device_and_partitions(const std::string& path, dev_t dev, const SystemRoots& roots) {
  std::vector<BlockDeviceNode> devs = {{path, dev, path}};
  std::error_code ec;
  fs::path sys = fs::path(roots.sys_root) / "dev/block" / dev_string(dev);
  for (const auto& entry : fs::directory_iterator(sys, ec)) {
    if (!fs::exists(entry.path() / "partition", ec)) continue;
    std::ifstream in(entry.path() / "dev");
    unsigned maj = 0, min = 0;
    char colon = 0;
    if (!(in >> maj >> colon >> min)) continue;
    std::string part = "/dev/" + entry.path().filename().string();
    devs.push_back({part, makedev(maj, min), part + " (partition of " + path + ")"});
  }
  return devs;
}

std::string unescape_proc_field(const std::string& s) {
  auto octal = [](char c) { return c >= '0' && c <= '7'; };
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size() && octal(s[i + 1]) && octal(s[i + 2]) && octal(s[i + 3])) {
      out += static_cast<char>((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
      i += 3;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::optional<std::string> mounted_node(const std::vector<BlockDeviceNode>& devs, const SystemRoots& roots) {
  std::ifstream in(roots.proc_root + "/self/mountinfo");
  std::string line;
  while (std::getline(in, line)) {
    // id parent major:minor root mountpoint options... - fstype source superoptions
    std::istringstream fields(line);
    std::string id, parent, majmin, root, mountpoint, word;
    fields >> id >> parent >> majmin >> root >> mountpoint;
    while (fields >> word && word != "-") {
    }
    std::string fstype, source;
    fields >> fstype >> source;
    for (const BlockDeviceNode& d : devs) {
      if (majmin == dev_string(d.dev) || same_device(unescape_proc_field(source), d.dev)) {
        return d.label + " is mounted on " + unescape_proc_field(mountpoint);
      }
    }
  }
  return std::nullopt;
}

std::optional<std::string> swap_node(const std::vector<BlockDeviceNode>& devs, const SystemRoots& roots) {
  std::ifstream in(roots.proc_root + "/swaps");
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::string source = unescape_proc_field(line.substr(0, line.find_first_of(" \t")));
    for (const BlockDeviceNode& d : devs) {
      if (same_device(source, d.dev)) return d.label + " is in use as swap";
    }
  }
  return std::nullopt;
}

std::optional<std::string> held_node(const std::vector<BlockDeviceNode>& devs, const SystemRoots& roots) {
  std::error_code ec;
  for (const BlockDeviceNode& d : devs) {
    const fs::path holders = fs::path(roots.sys_root) / "dev/block" / dev_string(d.dev) / "holders";
    for (const auto& holder : fs::directory_iterator(holders, ec)) {
      return d.label + " is held by /dev/" + holder.path().filename().string() + " (md / device-mapper)";
    }
  }
  return std::nullopt;
}

}  // namespace sluice
