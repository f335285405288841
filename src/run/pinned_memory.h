#pragma once
// PinnedMemory: lockmem. Maps and pins (mlock) a block of anonymous memory for as long as it lives, so the
// page cache and the other processes have that much less (fio's lockmem, "to simulate a smaller amount of
// memory"). One per job clone that asks, held while the job runs.
#include <cstddef>
#include <string>

namespace sluice {

class PinnedMemory {
 public:
  // Throws UserError ("lockmem=N: cannot pin N bytes: mlock: ...", with RLIMIT_MEMLOCK named when it is
  // the cause) when the memory cannot be mapped or pinned.
  explicit PinnedMemory(std::size_t bytes);
  ~PinnedMemory();
  PinnedMemory(const PinnedMemory&) = delete;
  PinnedMemory& operator=(const PinnedMemory&) = delete;

 private:
  void* memory_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace sluice
