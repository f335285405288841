#include "observe/disk_stats.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <system_error>

namespace sluice {

namespace fs = std::filesystem;

namespace {

// The sysfs name of the whole disk holding device major:minor, or "" when sysfs does not know it
// (anonymous devices of tmpfs, overlayfs, btrfs subvolumes, NFS).
std::string disk_name_of(unsigned major_num, unsigned minor_num, const std::string& sys_root) {
  const fs::path link =
      fs::path(sys_root) / "dev" / "block" / (std::to_string(major_num) + ":" + std::to_string(minor_num));
  std::error_code ec;
  const fs::path dir = fs::canonical(link, ec);
  if (ec) return {};
  // A partition's directory sits inside its disk's and has a "partition" file; dm / md / loop have none.
  if (fs::exists(dir / "partition", ec)) return dir.parent_path().filename().string();
  return dir.filename().string();
}

}  // namespace

std::vector<std::string> devices_under(const std::vector<std::string>& paths, const std::string& sys_root) {
  std::vector<std::string> names;
  std::set<dev_t> seen;  // thousands of files (nrfiles) on a few devices: each device is looked up once
  for (const auto& path : paths) {
    // A file not laid out yet lives on the device of the nearest existing directory above it.
    struct stat st {};
    std::error_code ec;
    fs::path at = fs::absolute(path, ec);
    if (ec) at = path;
    while (::stat(at.c_str(), &st) != 0 && at.has_relative_path()) at = at.parent_path();
    if (::stat(at.c_str(), &st) != 0) continue;
    const dev_t dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
    if (!seen.insert(dev).second) continue;
    const std::string name = disk_name_of(major(dev), minor(dev), sys_root);
    if (name.empty()) continue;
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  return names;
}

// Fields of /sys/block/<dev>/stat (Documentation/block/stat.rst): the first 11 are always present;
// discard (4) and flush (2) fields of newer kernels are ignored.
bool read_disk_counters(const std::string& name, DiskCounters& out, const std::string& sys_root) {
  std::ifstream in(fs::path(sys_root) / "block" / name / "stat");
  if (!in) return false;
  std::uint64_t f[11];
  for (auto& field : f) {
    if (!(in >> field)) return false;
  }
  out = DiskCounters{};
  out.name = name;
  out.read_ios = f[0];
  out.read_merges = f[1];
  out.read_sectors = f[2];
  out.read_ticks_ms = f[3];
  out.write_ios = f[4];
  out.write_merges = f[5];
  out.write_sectors = f[6];
  out.write_ticks_ms = f[7];
  out.in_flight = f[8];
  out.io_ticks_ms = f[9];
  out.in_queue_ms = f[10];
  return true;
}

namespace {
// Counters are monotonic; a smaller later value means the device was reset (or re-created), so 0.
std::uint64_t delta(std::uint64_t before, std::uint64_t after) noexcept { return after >= before ? after - before : 0; }
}  // namespace

DiskUtilization disk_utilization(const DiskCounters& before, const DiskCounters& after, std::uint64_t wall_ns) {
  DiskUtilization u;
  u.name = after.name.empty() ? before.name : after.name;
  u.read_ios = delta(before.read_ios, after.read_ios);
  u.write_ios = delta(before.write_ios, after.write_ios);
  u.read_merges = delta(before.read_merges, after.read_merges);
  u.write_merges = delta(before.write_merges, after.write_merges);
  u.read_sectors = delta(before.read_sectors, after.read_sectors);
  u.write_sectors = delta(before.write_sectors, after.write_sectors);
  u.read_ticks_ms = delta(before.read_ticks_ms, after.read_ticks_ms);
  u.write_ticks_ms = delta(before.write_ticks_ms, after.write_ticks_ms);
  u.in_queue_ms = delta(before.in_queue_ms, after.in_queue_ms);
  u.io_ticks_ms = delta(before.io_ticks_ms, after.io_ticks_ms);
  if (wall_ns > 0) {
    const double wall_ms = static_cast<double>(wall_ns) / 1e6;
    u.util_percent = std::min(100.0, 100.0 * static_cast<double>(u.io_ticks_ms) / wall_ms);
  }
  return u;
}

}  // namespace sluice
