#pragma once
// FileLocks: fio's lockfile= for one worker. Jobs of the run that name the same file share one lock (looked
// up by the file's canonical path in a process-wide registry, as fio shares its file hash's lock):
// exclusive = one io at a time on the file across all of them; readwrite = reads together, a write alone.
// The lock is held while an io is handed to the engine: the whole io for a synchronous engine, the submission
// for an asynchronous one (fio's td_io_prep to td_io_queue).
// Threads: each worker has its own FileLocks; the locks themselves are shared and live as long as the process.
#include <cstdint>
#include <shared_mutex>
#include <span>
#include <vector>

#include "engine/engine.h"
#include "job/target_options.h"
#include "targets/target_file.h"

namespace sluice {

class FileLocks {
 public:
  FileLocks(FileLockMode mode, const std::vector<TargetFile>& targets);

  bool active() const noexcept { return mode_ != FileLockMode::kNone; }
  // Takes the lock of the unit's file for its op (shared for a read under readwrite); release() gives it back.
  void acquire(const IoUnit& unit);
  void release(const IoUnit& unit) noexcept;
  // The locks of every file in the batch, in one global order (no two workers can wait on each other); a file
  // is locked exclusively when any of its ios in the batch is not a read.
  void acquire(std::span<IoUnit* const> batch);
  void release_held() noexcept;

 private:
  bool shared_for(IoOp op) const noexcept { return mode_ == FileLockMode::kReadWrite && op == IoOp::kRead; }

  FileLockMode mode_;
  std::vector<std::shared_mutex*> locks_;  // per file of the job; null for a file without one (a stand-in)
  std::vector<std::pair<std::shared_mutex*, bool>> held_;  // batch locks held: lock, shared
};

}  // namespace sluice
