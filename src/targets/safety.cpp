// Refusing destructive writes: a block device is a hazard when it (or one of its partitions) is mounted,
// used as swap, held by md / device-mapper, or carries a filesystem, partition table, RAID or LVM signature.
#include "targets/safety.h"

#include <blkid/blkid.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "targets/target_file.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;

struct BlockDev {
  std::string path;   // "/dev/loop3" or, for a partition, "/dev/loop3p1"
  dev_t dev = 0;
  std::string label;  // "/dev/loop3p1 (partition of /dev/loop3)" or just the path
};

std::string dev_string(dev_t dev) { return std::to_string(major(dev)) + ":" + std::to_string(minor(dev)); }

// The device itself and its partitions (from /sys/dev/block/M:m/<name>/partition).
std::vector<BlockDev> device_and_partitions(const std::string& path, dev_t dev) {
  std::vector<BlockDev> devs = {{path, dev, path}};
  std::error_code ec;
  fs::path sys = fs::path("/sys/dev/block") / dev_string(dev);
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

// Mountinfo's octal escapes ("\040" for a space) undone.
std::string unescape(const std::string& s) {
  auto octal = [](char c) { return c >= '0' && c <= '7'; };
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size() && octal(s[i + 1]) && octal(s[i + 2]) &&
        octal(s[i + 3])) {
      out += static_cast<char>((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
      i += 3;
    } else {
      out += s[i];
    }
  }
  return out;
}

bool same_device(const std::string& source, dev_t dev) {
  struct stat st {};
  return source.starts_with("/dev/") && ::stat(source.c_str(), &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == dev;
}

std::optional<std::string> mounted(const std::vector<BlockDev>& devs) {
  std::ifstream in("/proc/self/mountinfo");
  std::string line;
  while (std::getline(in, line)) {
    // id parent major:minor root mountpoint options... - fstype source superoptions
    std::istringstream fields(line);
    std::string id, parent, majmin, root, mountpoint, word;
    fields >> id >> parent >> majmin >> root >> mountpoint;
    while (fields >> word && word != "-") {}
    std::string fstype, source;
    fields >> fstype >> source;
    for (const BlockDev& d : devs) {
      if (majmin == dev_string(d.dev) || same_device(unescape(source), d.dev)) {
        return d.label + " is mounted on " + unescape(mountpoint);
      }
    }
  }
  return std::nullopt;
}

std::optional<std::string> swap_in_use(const std::vector<BlockDev>& devs) {
  std::ifstream in("/proc/swaps");
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::string source = unescape(line.substr(0, line.find_first_of(" \t")));
    for (const BlockDev& d : devs) {
      if (same_device(source, d.dev)) return d.label + " is in use as swap";
    }
  }
  return std::nullopt;
}

std::optional<std::string> held(const std::vector<BlockDev>& devs) {
  std::error_code ec;
  for (const BlockDev& d : devs) {
    for (const auto& holder : fs::directory_iterator(fs::path("/sys/dev/block") / dev_string(d.dev) / "holders", ec)) {
      return d.label + " is held by /dev/" + holder.path().filename().string() + " (md / device-mapper)";
    }
  }
  return std::nullopt;
}

std::optional<std::string> signature(const std::string& path) {
  blkid_probe probe = blkid_new_probe_from_filename(path.c_str());
  if (probe == nullptr) return path + " could not be probed for signatures (libblkid cannot open it)";
  blkid_probe_enable_superblocks(probe, 1);
  blkid_probe_set_superblocks_flags(probe, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
  blkid_probe_enable_partitions(probe, 1);
  blkid_probe_set_partitions_flags(probe, BLKID_PARTS_MAGIC);
  int rc = blkid_do_safeprobe(probe);
  std::optional<std::string> found;
  const char* value = nullptr;
  if (rc == -2) {
    found = path + " carries several conflicting signatures";
  } else if (rc < 0) {
    found = path + " could not be probed for signatures";
  } else if (rc == 0 && blkid_probe_lookup_value(probe, "PTTYPE", &value, nullptr) == 0) {
    found = path + " carries a " + value + " partition table";
  } else if (rc == 0 && blkid_probe_lookup_value(probe, "TYPE", &value, nullptr) == 0) {
    const char* usage = nullptr;
    std::string kind = blkid_probe_lookup_value(probe, "USAGE", &usage, nullptr) == 0 ? usage : "signature";
    if (kind == "filesystem") {
      found = path + " carries " + (std::string("aeiou").find(value[0]) != std::string::npos ? "an " : "a ") +
              value + " filesystem";
    } else {
      found = path + " carries a " + value + " signature (" + kind + ")";
    }
  }
  blkid_free_probe(probe);
  return found;
}

}  // namespace

std::optional<std::string> destructive_write_hazard(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISBLK(st.st_mode)) return std::nullopt;
  std::vector<BlockDev> devs = device_and_partitions(path, st.st_rdev);
  if (auto why = mounted(devs)) return why;
  if (auto why = swap_in_use(devs)) return why;
  if (auto why = held(devs)) return why;
  return signature(path);
}

void check_write_safety(const TargetFile& target, const TargetOptions& options) {
  if (!target.is_block_device || options.allow_destructive) return;
  if (auto why = destructive_write_hazard(target.path)) {
    throw UserError("refusing to write to " + target.path + ": " + *why +
                    "; writing would destroy its data (--allow-destructive overrides this check)");
  }
}

}  // namespace sluice
