#pragma once
// DurabilityOptions and the types of its fields: a part of JobSpec (job/job_spec.h composes the parts). Include this
// header, not job_spec.h, where only this part is needed.
#include <cstdint>

namespace sluice {

enum class SyncMode { kNone, kSync, kDsync };

// When written data is made durable: O_SYNC/O_DSYNC, a sync every N writes, at the job's end.
struct DurabilityOptions {
  SyncMode sync = SyncMode::kNone;
  std::uint32_t fsync_blocks = 0;            // fsync=N: fsync after every N writes
  std::uint32_t fdatasync_blocks = 0;        // fdatasync=N
  std::uint32_t sync_file_range_blocks = 0;  // sync_file_range=FLAGS:N: every N writes; 0 = never
  std::uint32_t sync_file_range_flags = 0;   // SYNC_FILE_RANGE_WAIT_BEFORE (1) | _WRITE (2) | _WAIT_AFTER (4)
  bool end_fsync = false;
  bool end_syncfs = false;  // at the end of a write stage: one syncfs(2) per file system, not fsyncs
  bool fsync_on_close = false;
};

}  // namespace sluice
