#include "observe/page_cache.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace sluice {

CacheDrop drop_page_cache(const SystemRoots& roots) {
  ::sync();  // drop_caches frees only clean pages: write the dirty ones first
  const std::string path = roots.proc_root + "/sys/vm/drop_caches";
  CacheDrop out;
  const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) {
    out.reason = "cannot open " + path + ": " + std::strerror(errno);
    return out;
  }
  const ssize_t n = ::write(fd, "3\n", 2);
  const int error = errno;
  ::close(fd);
  if (n != 2) {
    out.reason = "cannot write " + path + ": " + std::strerror(error);
    return out;
  }
  out.done = true;
  return out;
}

bool may_drop_page_cache() { return ::geteuid() == 0; }

}  // namespace sluice
