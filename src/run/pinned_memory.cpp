#include "run/pinned_memory.h"

#include <sys/mman.h>
#include <sys/resource.h>

#include <cerrno>
#include <cstring>

#include "common/error.h"

namespace sluice {

PinnedMemory::PinnedMemory(std::size_t bytes) : bytes_(bytes) {
  const std::string what = "lockmem=" + std::to_string(bytes) + ": cannot pin " + std::to_string(bytes) + " bytes: ";
  memory_ = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory_ == MAP_FAILED) {
    memory_ = nullptr;
    throw UserError(what + "mmap: " + std::strerror(errno));
  }
  if (::mlock(memory_, bytes) != 0) {
    const int error = errno;
    ::munmap(memory_, bytes);
    memory_ = nullptr;
    std::string limit;
    rlimit rl{};
    if ((error == EPERM || error == ENOMEM) && ::getrlimit(RLIMIT_MEMLOCK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
      limit = " (RLIMIT_MEMLOCK is " + std::to_string(rl.rlim_cur) + " bytes; ulimit -l raises it)";
    }
    throw UserError(what + "mlock: " + std::strerror(error) + limit);
  }
}

PinnedMemory::~PinnedMemory() {
  if (memory_ != nullptr) ::munmap(memory_, bytes_);  // unpins too
}

}  // namespace sluice
