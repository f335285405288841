#pragma once
// IoLogOptions and the types of its fields: a part of JobSpec (job/job_spec.h composes the parts). Include this
// header, not job_spec.h, where only this part is needed.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace sluice {

struct IoLog;  // workload/iolog.h

// replay_skip's bits (fio's read, write, trim, sync).
inline constexpr std::uint32_t kReplaySkipRead = 1, kReplaySkipWrite = 2, kReplaySkipTrim = 4, kReplaySkipSync = 8;

// fio's write_iolog / read_iolog family: the io log a job writes, and the logs it replays.
struct IoLogOptions {
  std::string write_iolog;                // append every issued io to this file (fio's iolog version 3)
  std::vector<std::string> read_iolog;    // logs to replay ("a:b": one per clone in turn); empty = none
  bool replay_no_stall = false;           // ignore the log's timing
  std::uint32_t replay_time_scale = 100;  // percent of the log's rate
  std::string replay_redirect;            // every io of the log goes to this file
  std::uint32_t replay_scale = 1;         // offsets divided by this (0 = 1)
  std::uint32_t replay_align = 0;         // offsets rounded down to a multiple (power of 2; 0 = none)
  std::uint32_t replay_skip = 0;          // kReplaySkip* bits: actions of the log left out
  std::string merge_blktrace_file;        // read_iolog's blktraces are merged into this file, which is replayed
  std::vector<std::uint32_t> merge_blktrace_scalars;  // per read_iolog trace: time percent (empty = 100 each)
  std::vector<std::uint32_t> merge_blktrace_iters;    // per read_iolog trace: repetitions (empty = 1 each)
  std::shared_ptr<const IoLog> replay_log;            // the clone's log, read by the runner (run/replay_binding.h)
};

}  // namespace sluice
