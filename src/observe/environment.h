#pragma once
// Environment snapshot recorded in every result (sluice.environment): host, kernel, CPU, memory, and for each
// target path its filesystem and mount options and its device's queue settings; the vm.dirty_* knobs.
// proc_root / sys_root are parameters so tests use synthetic trees.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sluice {

// Schema (every leaf may be null when its file is missing or unreadable; never throws for missing files):
//   host, kernel ("<release> <version>"), kernel_release, cpu {model, count}, memory_bytes (MemTotal),
//   vm {dirty_ratio, dirty_background_ratio, dirty_bytes, dirty_background_bytes, dirty_expire_centisecs,
//       dirty_writeback_centisecs},
//   virtualization {kind, what, vm, container, evidence, summary} (observe/virtualization.h: both layers of
//       a container in a VM),
//   targets [{path, realpath, filesystem, mount_point, mount_options, mount_source, device}]
//     (the mount is the longest mount point of <proc_root>/self/mountinfo holding the realpath; a target not
//      created yet is resolved through its nearest existing parent; device is the whole-disk name, see
//      devices_under; beyond 64 paths, one entry per directory, its path the directory's, with `files`, the
//      count of the job files in it),
//   devices [{name, model, size_bytes, rotational (bool), logical_block_size, physical_block_size, scheduler
//            (the active one), nr_requests, queue_depth, write_cache, read_ahead_kb, wbt_lat_usec, cache_bytes
//            (the cache the device reports of itself: a sluice lab's model's; null when unknown)}].
// host and kernel come from <proc_root>/sys/kernel/{hostname,osrelease,version}, else from uname().
nlohmann::json capture_environment(const std::vector<std::string>& target_paths, const std::string& proc_root = "/proc",
                                   const std::string& sys_root = "/sys");

}  // namespace sluice
