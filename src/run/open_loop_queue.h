#pragma once
// OpenLoopQueue: the arrival bookkeeping of an open-loop job (open_loop=1, sluice extension).
//
// Arrivals follow the rate schedule (ArrivalSchedule) whatever happens to earlier ios. When every io slot
// is busy, arrivals wait in a FIFO queue; an io's lat is measured from its scheduled arrival, and its
// queue wait is start - scheduled arrival, so a stalled target shows up as latency, not as missing
// samples (no coordinated omission).
//
// The FIFO is implicit: the schedule hands out arrival times in order, so the queue's content is the run
// of schedule slots from the oldest arrival not yet started (the head, which the caller draws when a slot
// frees) up to now. Only the head and the arrival times of the ios in flight (one per slot) are stored:
// memory stays constant whatever the backlog. The backlog length is derived from the head's lateness and
// the mean gap between arrivals; a backlog over kMaxBacklog arrivals means the target cannot come close
// to the rate, and the job stops with a message saying so.
//
// Threads: one per worker, not shared. No allocation after construction.
#include <cstdint>
#include <string>
#include <vector>

#include "common/direction.h"
#include "job/pacing_options.h"

namespace sluice {

class OpenLoopQueue {
 public:
  static constexpr std::uint64_t kMaxBacklog = 10'000'000;

  // slots: the io depth. Disabled (every call a no-op) unless pacing.open_loop_active().
  OpenLoopQueue(const PacingOptions& pacing, std::uint32_t slots);

  bool enabled() const noexcept { return enabled_; }
  // The io arriving at arrival_ns starts (is submitted) at start_ns in `slot`. Returns its queue wait.
  std::uint64_t start(std::uint32_t slot, std::uint64_t arrival_ns, std::uint64_t start_ns) noexcept;
  // Scheduled arrival of the io last started in `slot`.
  std::uint64_t arrival_of(std::uint32_t slot) const noexcept { return arrival_[slot]; }
  // Arrivals that are due at now_ns but not started, when the oldest of them (of `direction`, `bytes`
  // long) arrived at head_ns. Exact for rate_process=linear, the expected count for poisson.
  std::uint64_t backlog(Direction direction, std::uint32_t bytes, std::uint64_t head_ns,
                        std::uint64_t now_ns) const noexcept;
  bool overflowing(Direction direction, std::uint32_t bytes, std::uint64_t head_ns,
                   std::uint64_t now_ns) const noexcept {
    return backlog(direction, bytes, head_ns, now_ns) > kMaxBacklog;
  }
  // The message of a job stopped by an overflowing backlog.
  std::string overflow_message(Direction direction, std::uint32_t bytes, std::uint64_t head_ns,
                               std::uint64_t now_ns) const;

 private:
  double mean_gap_ns(Direction direction, std::uint32_t bytes) const noexcept;

  bool enabled_ = false;
  PerDirection<double> ns_per_io_{};    // from rate_iops
  PerDirection<double> ns_per_byte_{};  // from rate
  std::vector<std::uint64_t> arrival_;  // per slot
};

}  // namespace sluice
