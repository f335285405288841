#pragma once
// Who uses a block device, from the kernel's tables: its partitions (<sys>/dev/block/M:m/*/partition),
// mounts (<proc>/self/mountinfo), swap (<proc>/swaps) and holders (<sys>/dev/block/M:m/holders: md and
// device-mapper). The safety check (targets/safety.h) decides from these whether a write is destructive.
#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

#include "observe/system_roots.h"

namespace sluice {

struct BlockDeviceNode {
  std::string path;  // "/dev/loop3" or, for a partition, "/dev/loop3p1"
  dev_t dev = 0;
  std::string label;  // "/dev/loop3p1 (partition of /dev/loop3)" or just the path
};

// The device at `path` (device number `dev`) followed by its partitions.
std::vector<BlockDeviceNode> device_and_partitions(const std::string& path, dev_t dev, const SystemRoots& roots = {});

// "<label> is mounted on <mount point>" for the first of `nodes` that is mounted; nullopt when none is.
std::optional<std::string> mounted_node(const std::vector<BlockDeviceNode>& nodes, const SystemRoots& roots = {});
// "<label> is in use as swap" for the first of `nodes` that is; nullopt when none is.
std::optional<std::string> swap_node(const std::vector<BlockDeviceNode>& nodes, const SystemRoots& roots = {});
// "<label> is held by /dev/<holder> (md / device-mapper)" for the first held node; nullopt when none is.
std::optional<std::string> held_node(const std::vector<BlockDeviceNode>& nodes, const SystemRoots& roots = {});

// Undoes the octal escapes of mountinfo and /proc/swaps ("\040" is a space).
std::string unescape_proc_field(const std::string& field);

}  // namespace sluice
