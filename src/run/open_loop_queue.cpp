#include "run/open_loop_queue.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace sluice {

OpenLoopQueue::OpenLoopQueue(const PacingOptions& pacing, std::uint32_t slots)
    : enabled_(pacing.open_loop_active()), arrival_(std::max<std::uint32_t>(slots, 1), 0) {
  for (Direction d : kAllDirections) {
    const int i = index_of(d);
    if (pacing.rate_iops[i] != 0) ns_per_io_[i] = 1e9 / static_cast<double>(pacing.rate_iops[i]);
    if (pacing.rate[i] != 0) ns_per_byte_[i] = 1e9 / static_cast<double>(pacing.rate[i]);
  }
}

std::uint64_t OpenLoopQueue::start(std::uint32_t slot, std::uint64_t arrival_ns, std::uint64_t start_ns) noexcept {
  arrival_[slot] = arrival_ns;
  return start_ns > arrival_ns ? start_ns - arrival_ns : 0;
}

// The same gap ArrivalSchedule uses (the stricter of rate and rate_iops); its mean for poisson too.
double OpenLoopQueue::mean_gap_ns(Direction direction, std::uint32_t bytes) const noexcept {
  const int i = index_of(direction);
  return std::max(ns_per_io_[i], ns_per_byte_[i] * bytes);
}

std::uint64_t OpenLoopQueue::backlog(Direction direction, std::uint32_t bytes, std::uint64_t head_ns,
                                     std::uint64_t now_ns) const noexcept {
  if (!enabled_ || now_ns < head_ns) return 0;
  const double gap = mean_gap_ns(direction, bytes);
  if (gap <= 0.0) return 0;
  // The head itself and every arrival one gap after it, up to now.
  return static_cast<std::uint64_t>(std::floor(static_cast<double>(now_ns - head_ns) / gap)) + 1;
}

std::string OpenLoopQueue::overflow_message(Direction direction, std::uint32_t bytes, std::uint64_t head_ns,
                                            std::uint64_t now_ns) const {
  const double gap = mean_gap_ns(direction, bytes);
  return fmt::format(
      "open_loop: {} arrivals are waiting (more than {}; the oldest has waited {:.1f} s): the target serves far "
      "fewer than the {:.0f} {} ios/s asked for; lower rate_iops/rate or measure its capacity first",
      backlog(direction, bytes, head_ns, now_ns), kMaxBacklog, static_cast<double>(now_ns - head_ns) / 1e9,
      gap > 0.0 ? 1e9 / gap : 0.0, direction_name(direction));
}

}  // namespace sluice
