// ArrivalSchedule: a pure schedule. next_arrival() hands out slot after slot, each one gap after the
// previous slot (not after "now"), so a caller that falls behind does not push the schedule back: the rate
// holds over the run and an open-loop caller sees its lateness as latency. Thinktime (thinktime,
// thinktime_blocks, thinktime_spin) is applied by the runner between ios, not here.
#include "workload/arrival.h"

#include <algorithm>
#include <cmath>

namespace sluice {

ArrivalSchedule::ArrivalSchedule(const PacingOptions& pacing, std::uint64_t seed)
    : process_(pacing.rate_process), rng_(seed ^ 0x5851f42d4c957f2dull) {
  for (Direction d : kAllDirections) {
    const int i = index_of(d);
    if (pacing.rate_iops[i] != 0) ns_per_io_[i] = 1e9 / static_cast<double>(pacing.rate_iops[i]);
    if (pacing.rate[i] != 0) ns_per_byte_[i] = 1e9 / static_cast<double>(pacing.rate[i]);
    if (ns_per_io_[i] > 0.0 || ns_per_byte_[i] > 0.0) limited_ = true;
  }
}

void ArrivalSchedule::start(std::uint64_t start_ns) noexcept {
  start_ns_ = start_ns;
  next_ns_ = {};
}

std::uint64_t ArrivalSchedule::next_arrival(Direction direction, std::uint32_t bytes) noexcept {
  const int i = index_of(direction);
  // With both rate and rate_iops on a direction, the stricter (longer) gap wins.
  double gap = std::max(ns_per_io_[i], ns_per_byte_[i] * bytes);
  if (gap <= 0.0) return 0;
  if (process_ == RateProcess::kPoisson) gap *= -std::log1p(-rng_.uniform());  // exponential, same mean
  const double slot = next_ns_[i];
  next_ns_[i] += gap;
  return start_ns_ + static_cast<std::uint64_t>(slot);
}

}  // namespace sluice
