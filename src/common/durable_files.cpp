#include "common/durable_files.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "common/error.h"

namespace sluice {

std::string errno_text() { return std::strerror(errno); }

std::string directory_of(const std::string& path) {
  const std::string parent = std::filesystem::path(path).parent_path().string();
  return parent.empty() ? "." : parent;
}

void fsync_directory(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) throw UserError(fmt::format("cannot open {}: {}", dir, errno_text()));
  const int result = ::fsync(fd);
  const std::string why = result != 0 ? errno_text() : std::string();
  ::close(fd);
  if (result != 0) throw UserError(fmt::format("cannot sync {}: {}", dir, why));
}

bool try_fsync_directory(const std::string& dir) noexcept {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool synced = ::fsync(fd) == 0;
  ::close(fd);
  return synced;
}

}  // namespace sluice
