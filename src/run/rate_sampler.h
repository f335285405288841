#pragma once
// RateSampler: fio's bandwidth and IOPS samples (stat.c __add_samples), the source of the JSON's bw_min,
// bw_max, bw_mean, bw_dev, bw_samples and their iops_* twins. Once per window (bwavgtime / iopsavgtime, 500 ms
// by default) each direction that moved gets one sample: what it did since the last sample divided by the
// time since the window began. A direction that did nothing adds no sample, and the partial window at the
// end adds none, as in fio. Checked between batches: one comparison per reap.
#include <cstdint>

#include "stats/result.h"

namespace sluice {

class RateSampler {
 public:
  // bytes: sample bytes per second into bw_samples; else ios per second into iops_samples.
  explicit RateSampler(bool bytes) noexcept : bytes_(bytes) {}

  void start(std::uint64_t now_ns, std::uint64_t window_ns) noexcept {
    window_ns_ = window_ns == 0 ? 1 : window_ns;
    window_start_ns_ = now_ns;
    due_ns_ = now_ns + window_ns_;
    last_ = {};
  }
  bool due(std::uint64_t now_ns) const noexcept { return now_ns >= due_ns_; }

  // Precondition: due(now_ns).
  void sample(std::uint64_t now_ns, PerDirection<DirectionStats>& dirs) noexcept {
    const double seconds = static_cast<double>(now_ns - window_start_ns_) / 1e9;
    for (int d = 0; d < kNumDirections; ++d) {
      const std::uint64_t count = bytes_ ? dirs[d].bytes : dirs[d].ios;
      if (count == last_[d]) continue;
      const double rate = static_cast<double>(count - last_[d]) / seconds;
      (bytes_ ? dirs[d].bw_samples : dirs[d].iops_samples).add(rate);
      last_[d] = count;
    }
    // fio moves the window on by its length; a loop that fell behind starts afresh rather than catching up.
    window_start_ns_ += window_ns_;
    if (window_start_ns_ + window_ns_ <= now_ns) window_start_ns_ = now_ns;
    due_ns_ = window_start_ns_ + window_ns_;
  }

 private:
  bool bytes_;
  std::uint64_t window_ns_ = 1;
  std::uint64_t window_start_ns_ = 0;
  std::uint64_t due_ns_ = ~std::uint64_t{0};
  PerDirection<std::uint64_t> last_{};
};

}  // namespace sluice
