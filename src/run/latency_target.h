#pragma once
// LatencyTarget: fio's latency_target search (io_u.c lat_target_*), for one job clone. The job starts at
// queue depth 1; at the end of each latency_window the share of ios whose total latency stayed within the
// target decides: at least latency_percentile percent doubles the depth (or bisects toward the last failing
// depth), fewer bisects it down. With latency_percentile=100 a single io over the target ramps down at once
// (and at depth 1 fails the job). When a window ends at the depth it started with, the depth is found: the
// statistics are reset and one more window runs at it (fio's "final run"); then the job ends, unless
// latency_run keeps it adjusting until its runtime or size ends it.
//
// sluice's `capacity` subcommand finds the highest load within a latency limit more robustly (it searches
// the offered rate, open loop, with a confidence interval); this is fio's method, for fio's jobs.
// Pure state machine: the io loop feeds it completions and clock readings and acts on what it returns.
#include <cstdint>

namespace sluice {

struct LatencyTargetSettings {
  std::uint64_t target_ns = 0;  // latency_target
  std::uint64_t window_ns = 0;  // latency_window
  double percentile = 100.0;    // latency_percentile
  bool keep_running = false;    // latency_run
  std::uint32_t max_depth = 1;  // iodepth
};

class LatencyTarget {
 public:
  enum class Step {
    kNone,
    kRampedDown,  // the depth went down: wait for the ios in flight before issuing more (fio's quiesce)
    kFinalRun,    // the depth is found: wait for the ios in flight, reset the statistics, run one more window
    kDone,        // the final window ended: the job is over
    kFailed,      // an io over the target at depth 1 with latency_percentile=100: fio's lat_fatal
  };

  LatencyTarget(const LatencyTargetSettings& settings, std::uint64_t now_ns) noexcept;

  // The depth the job may use now (1..max_depth).
  std::uint32_t depth() const noexcept { return depth_; }

  // An io completed with total latency lat_ns.
  Step completed(std::uint64_t lat_ns, std::uint64_t now_ns) noexcept;
  // Called often (each loop turn): ends the window when latency_window has passed.
  Step check(std::uint64_t now_ns) noexcept {
    return now_ns - window_start_ns_ < settings_.window_ns ? Step::kNone : end_window(now_ns);
  }

 private:
  Step end_window(std::uint64_t now_ns) noexcept;
  Step ramp_down(std::uint64_t now_ns) noexcept;  // precondition: depth_ > 1
  Step ramp_up(std::uint64_t now_ns) noexcept;
  void new_window(std::uint64_t now_ns) noexcept;

  LatencyTargetSettings settings_;
  std::uint32_t depth_ = 1;
  std::uint32_t low_ = 1;
  std::uint32_t high_ = 1;
  std::uint32_t stable_count_ = 0;
  bool final_run_ = false;
  std::uint64_t window_start_ns_ = 0;
  std::uint64_t window_ios_ = 0;
  std::uint64_t window_failed_ = 0;
};

}  // namespace sluice
