#pragma once
// Internal to the log readers (iolog.cpp: fio's text iolog, blktrace.cpp: blkparse dumps): collects a log's
// entries as fio queues them, with the replay_* settings applied, and the totals the replay binding needs.
#include <cstdint>
#include <string>
#include <string_view>

#include "workload/iolog.h"

namespace sluice::detail {

// The longest wait a log may ask for between two events: longer is a log whose times are not in the unit
// its format says (an error, rather than a replay that sleeps for years).
inline constexpr std::uint64_t kMaxReplayDelayUs = 86'400'000'000;  // a day

class IoLogBuilder {
 public:
  explicit IoLogBuilder(const ReplaySettings& settings);

  // The index of the file `name`, added when new; with replay_redirect every name is the redirect target.
  std::uint32_t file(std::string_view name);
  // The index of `name` if the log added it (always 0 with replay_redirect), else -1.
  std::int64_t known_file(std::string_view name) const;
  // fio's delay_since_ttime: the time from the previous timed event to `time` (in the caller's unit), 0 for
  // the first and when time goes back, scaled by replay_time_scale, 0 with replay_no_stall. Remembers `time`.
  std::uint64_t delay_since(std::uint64_t time);
  // Time (us) that passes before the next entry (saturating).
  void wait(std::uint64_t delay_us) noexcept;
  // replay_skip (and replay_no_stall for a v2 wait) leave this kind out.
  bool skipped(IoLogEntry::Kind kind) const noexcept;
  // Adds an entry carrying the time waited since the last one. A read, write or trim has its offset divided
  // by replay_scale and aligned down to replay_align; a wait keeps its offset (ms). Returns what is wrong
  // ("" when nothing): a length of 0 or over kMaxIoLogLength, an offset beyond any file.
  std::string add(IoLogEntry::Kind kind, std::uint32_t file, std::uint64_t offset, std::uint64_t length);
  bool holds_io() const noexcept;
  IoLog take(int version) {
    log_.version = version;
    return std::move(log_);
  }

 private:
  const ReplaySettings& settings_;
  IoLog log_;
  std::uint64_t last_time_ = 0;
  std::uint64_t pending_us_ = 0;
};

}  // namespace sluice::detail
