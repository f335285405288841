#pragma once
// Synchronous helpers shared by the engines: trim (punch hole on files, BLKDISCARD on block devices) and
// fsync / fdatasync. Each returns the IoUnit result convention: length on success, -errno on failure.
#include <cstdint>
#include <vector>

#include "engine/engine.h"

namespace sluice::detail {

// For each fd: true when it refers to a block device (fstat once at open, never per io).
[[nodiscard]] std::vector<bool> block_device_flags(const std::vector<int>& fds);

[[nodiscard]] std::int64_t sync_trim(int fd, bool is_block_device, std::uint64_t offset, std::uint32_t length) noexcept;
[[nodiscard]] std::int64_t sync_flush(int fd, IoOp op, std::uint32_t length) noexcept;
// sync_file_range(2) of the unit's range with its range_flags.
[[nodiscard]] std::int64_t sync_range(int fd, const IoUnit& unit) noexcept;

// Runs one non-data op (trim, fsync, fdatasync, sync_file_range) synchronously; precondition: op is not
// read/write.
[[nodiscard]] inline std::int64_t sync_non_data(const IoUnit& unit, int fd, bool is_block_device) noexcept {
  if (unit.op == IoOp::kTrim) return sync_trim(fd, is_block_device, unit.offset, unit.length);
  if (unit.op == IoOp::kSyncRange) return sync_range(fd, unit);
  return sync_flush(fd, unit.op, unit.length);
}

}  // namespace sluice::detail
