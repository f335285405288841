#pragma once
// Helpers shared by the target module's files (not part of its interface).
#include <cstdint>
#include <string>

namespace sluice::detail {

// Size in bytes of the block device at path (BLKGETSIZE64); throws UserError naming the path on failure.
std::uint64_t block_device_size(const std::string& path);

}  // namespace sluice::detail
