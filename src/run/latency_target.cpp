#include "run/latency_target.h"

#include <algorithm>

namespace sluice {

LatencyTarget::LatencyTarget(const LatencyTargetSettings& settings, std::uint64_t now_ns) noexcept
    : settings_(settings), high_(std::max<std::uint32_t>(settings.max_depth, 1)) {
  settings_.max_depth = high_;
  new_window(now_ns);
}

void LatencyTarget::new_window(std::uint64_t now_ns) noexcept {
  window_start_ns_ = now_ns;
  window_ios_ = 0;
  window_failed_ = 0;
}

LatencyTarget::Step LatencyTarget::completed(std::uint64_t lat_ns, std::uint64_t now_ns) noexcept {
  ++window_ios_;
  if (lat_ns <= settings_.target_ns) return Step::kNone;
  if (settings_.percentile < 100.0) {
    ++window_failed_;
    return Step::kNone;
  }
  if (depth_ == 1) return Step::kFailed;  // fio's lat_fatal
  return ramp_down(now_ns);
}

LatencyTarget::Step LatencyTarget::end_window(std::uint64_t now_ns) noexcept {
  // A window in which no io completed fails, as in fio (its share is 0/0, which meets no percentile).
  const bool met =
      window_ios_ > 0 && 100.0 * static_cast<double>(window_ios_ - window_failed_) / static_cast<double>(window_ios_) >=
                             settings_.percentile;
  if (met) return ramp_up(now_ns);
  if (depth_ == 1) {  // nothing lower to try: fio goes on at depth 1 (a failed window never fails the job)
    new_window(now_ns);
    return Step::kNone;
  }
  return ramp_down(now_ns);
}

LatencyTarget::Step LatencyTarget::ramp_down(std::uint64_t now_ns) noexcept {
  high_ = depth_;
  if (depth_ == low_) --low_;
  depth_ = (depth_ + low_) / 2;
  stable_count_ = 0;
  new_window(now_ns);
  return Step::kRampedDown;
}

LatencyTarget::Step LatencyTarget::ramp_up(std::uint64_t now_ns) noexcept {
  const std::uint32_t before = depth_;
  low_ = depth_;
  if (depth_ + 1 == high_ && ++stable_count_ >= 3) {
    ++high_;  // fio's heuristic: three successes just below the failing depth try it again
    stable_count_ = 0;
  }
  depth_ = high_ != settings_.max_depth ? (depth_ + high_) / 2 : depth_ * 2;
  depth_ = std::min(depth_, settings_.max_depth);
  new_window(now_ns);
  if (settings_.keep_running || depth_ != before) return Step::kNone;
  if (final_run_) return Step::kDone;
  final_run_ = true;
  return Step::kFinalRun;
}

}  // namespace sluice
