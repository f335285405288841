#pragma once
// TimeSeries: fixed-interval samples per direction (ops, bytes, latency sum for the mean, p99 latency),
// with bounded memory: when kMaxSamples is reached, adjacent samples are merged in pairs and the interval
// doubles (p99 of a merged pair is the larger of the two, an upper bound; documented in the output).
//
// The worker that owns it calls append() once per base interval (the interval given to the constructor),
// whatever the current resolution: after a halving, appended samples accumulate into the last stored sample
// until it spans the current interval. So the worker never needs to know about halving. The last sample may
// cover less than interval_ns() (a run rarely ends on an interval boundary). It never allocates on the
// per-I/O path (the vector grows once per interval at most).
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <vector>

#include "common/direction.h"

namespace sluice {

struct IntervalSample {
  std::uint64_t ops = 0;
  std::uint64_t bytes = 0;
  std::uint64_t lat_sum_ns = 0;  // sum of lat of the ops completed in the interval (mean = sum / ops)
  std::uint64_t lat_p99_ns = 0;  // p99 of lat of the ops completed in the interval
};

class TimeSeries {
 public:
  static constexpr std::size_t kMaxSamples = 4096;

  explicit TimeSeries(std::uint64_t interval_ns = 1'000'000'000ull)
      : base_interval_ns_(interval_ns), interval_ns_(interval_ns) {}

  std::uint64_t interval_ns() const noexcept { return interval_ns_; }            // current resolution
  std::uint64_t base_interval_ns() const noexcept { return base_interval_ns_; }  // the append() period
  std::size_t size() const noexcept { return samples_.size(); }
  const PerDirection<IntervalSample>& at(std::size_t i) const { return samples_[i]; }
  const std::vector<PerDirection<IntervalSample>>& samples() const noexcept { return samples_; }

  // Appends one interval's sample (all directions). Halves the resolution when full.
  void append(const PerDirection<IntervalSample>& sample);

  // Adds another series of the same interval sample by sample (index 0 with index 0): the sum over jobs
  // of a group, or over hosts. Resolutions are first brought to the coarser of the two.
  void merge(const TimeSeries& other);

  nlohmann::json to_json() const;
  static TimeSeries from_json(const nlohmann::json& j);

 private:
  void halve_resolution();
  std::uint64_t factor() const noexcept { return base_interval_ns_ ? interval_ns_ / base_interval_ns_ : 1; }

  std::uint64_t base_interval_ns_;
  std::uint64_t interval_ns_;
  std::vector<PerDirection<IntervalSample>> samples_;
  std::uint64_t last_fill_ = 0;  // base intervals accumulated into samples_.back()
};

}  // namespace sluice
