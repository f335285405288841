#pragma once
// Block-device safety probes (libblkid, and observe/block_device_usage for mounts, swap and holders). Kept apart from
// target_file so tests can call them on loop devices directly.
#include <optional>
#include <string>

#include "observe/system_roots.h"

namespace sluice {

// Returns why writing to the block device at `path` would destroy data ("/dev/loop3 carries an ext4
// filesystem", "/dev/sda1 (partition of /dev/sda) is mounted on /boot"), or nullopt when nothing was found.
std::optional<std::string> destructive_write_hazard(const std::string& path, const SystemRoots& roots = {});

}  // namespace sluice
