#pragma once
// Disk statistics of the block devices under the target files, from /sys/block/<dev>/stat, as fio's
// disk_util. The sysfs root is a parameter so tests drive it with synthetic files.
#include <cstdint>
#include <string>
#include <vector>

#include "stats/result.h"

namespace sluice {

struct DiskCounters {
  std::string name;  // "vda", "nvme0n1", "loop3"
  std::uint64_t read_ios = 0, read_merges = 0, read_sectors = 0, read_ticks_ms = 0;
  std::uint64_t write_ios = 0, write_merges = 0, write_sectors = 0, write_ticks_ms = 0;
  std::uint64_t in_flight = 0, io_ticks_ms = 0, in_queue_ms = 0;
};

// The whole-disk device names (partitions resolved to their disk; dm / md kept as themselves) holding the
// given paths; unknown ones are skipped. Paths may be files or block devices; a path that does not exist yet
// (a file sluice will lay out) counts as the nearest existing directory above it.
std::vector<std::string> devices_under(const std::vector<std::string>& paths, const std::string& sys_root = "/sys");

// Reads /sys/block/<name>/stat. Returns false if it cannot.
bool read_disk_counters(const std::string& name, DiskCounters& out, const std::string& sys_root = "/sys");

// The difference of two readings over wall_ns of wall time, as fio's disk_util.
DiskUtilization disk_utilization(const DiskCounters& before, const DiskCounters& after, std::uint64_t wall_ns);

}  // namespace sluice
