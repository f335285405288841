#pragma once
// ArrivalSchedule: when the next io may start, for rate / rate_iops limits (rate_process=linear spaces
// them evenly, poisson draws exponential gaps with the same mean). Thinktime is applied by the runner, not
// here. Closed loop by default:
// the schedule only delays issue; open loop (later issue) measures lat from the scheduled time.
#include <cstdint>

#include "common/direction.h"
#include "common/rng.h"
#include "job/pacing_options.h"

namespace sluice {

class ArrivalSchedule {
 public:
  ArrivalSchedule(const PacingOptions& pacing, std::uint64_t seed);

  bool limited() const noexcept { return limited_; }
  // Anchors the schedule at the measured start (monotonic ns).
  void start(std::uint64_t start_ns) noexcept;
  // Monotonic ns at which an io of `bytes` in `direction` may start, given the previous schedule; the
  // caller sleeps (or spins when close) until then. Returns 0 for a direction with no rate limit (the io
  // may start at once; see limited(Direction)).
  std::uint64_t next_arrival(Direction direction, std::uint32_t bytes) noexcept;
  // Moves every later arrival `ns` later (rate_ignore_thinktime: a think time is not caught up afterwards).
  void postpone(std::uint64_t ns) noexcept { start_ns_ += ns; }
  bool limited(Direction direction) const noexcept {
    return ns_per_io_[index_of(direction)] > 0.0 || ns_per_byte_[index_of(direction)] > 0.0;
  }

 private:
  bool limited_ = false;
  RateProcess process_ = RateProcess::kLinear;
  PerDirection<double> ns_per_io_{};    // from rate_iops
  PerDirection<double> ns_per_byte_{};  // from rate
  PerDirection<double> next_ns_{};      // schedule position per direction, ns after start_ns_
  std::uint64_t start_ns_ = 0;
  Rng rng_;
};

}  // namespace sluice
