#pragma once
// LogEpoch: the time column of fio-format logs. By default milliseconds since the job's measured start; with
// fio's log_unix_epoch or log_alternate_epoch, milliseconds since the epoch of log_alternate_epoch_clock_id's
// clock (0: CLOCK_REALTIME, so Unix time), read once, at the first line.
// Threads: owned by one log writer, not shared.
#include <time.h>

#include <cstdint>

#include "job/log_options.h"

namespace sluice {

class LogEpoch {
 public:
  explicit LogEpoch(const LogOptions& logs) noexcept
      : from_clock_(logs.log_unix_epoch || logs.log_alternate_epoch), clock_id_(logs.log_alternate_epoch_clock_id) {}

  // The time column for an event t_ns after the measured start; called at about that moment.
  std::uint64_t ms(std::uint64_t t_ns) noexcept {
    const std::uint64_t relative = t_ns / 1'000'000;
    if (!from_clock_) return relative;
    if (!known_) {
      timespec now{};
      clock_gettime(static_cast<clockid_t>(clock_id_), &now);
      const std::uint64_t now_ms =
          static_cast<std::uint64_t>(now.tv_sec) * 1000 + static_cast<std::uint64_t>(now.tv_nsec) / 1'000'000;
      base_ms_ = now_ms >= relative ? now_ms - relative : 0;
      known_ = true;
    }
    return base_ms_ + relative;
  }

 private:
  bool from_clock_;
  int clock_id_;
  bool known_ = false;
  std::uint64_t base_ms_ = 0;
};

}  // namespace sluice
