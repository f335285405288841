#include "engine/sync_ops.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace sluice::detail {

std::vector<bool> block_device_flags(const std::vector<int>& fds) {
  std::vector<bool> flags(fds.size(), false);
  for (std::size_t i = 0; i < fds.size(); ++i) {
    struct stat st {};
    if (fds[i] >= 0 && fstat(fds[i], &st) == 0) flags[i] = S_ISBLK(st.st_mode);
  }
  return flags;
}

std::int64_t sync_trim(int fd, bool is_block_device, std::uint64_t offset, std::uint32_t length) noexcept {
  int rc;
  if (is_block_device) {
    std::uint64_t range[2] = {offset, length};
    rc = ioctl(fd, BLKDISCARD, range);
  } else {
    rc = fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(offset), length);
  }
  return rc == 0 ? static_cast<std::int64_t>(length) : -errno;
}

std::int64_t sync_flush(int fd, IoOp op, std::uint32_t length) noexcept {
  int rc = op == IoOp::kFdatasync ? fdatasync(fd) : fsync(fd);
  return rc == 0 ? static_cast<std::int64_t>(length) : -errno;
}

std::int64_t sync_range(int fd, const IoUnit& unit) noexcept {
  const int rc = sync_file_range(fd, static_cast<off64_t>(unit.offset), unit.length, unit.range_flags);
  return rc == 0 ? static_cast<std::int64_t>(unit.length) : -errno;
}

}  // namespace sluice::detail
