#pragma once
// SteadyStateMonitor: fio's steadystate / ss= for one job. Samples the job's iops, bandwidth and mean
// completion latency every ss_interval after ss_ramp, keeps the last ss_dur of samples, and says when the
// chosen criterion holds over a full window (the job then ends). to_json() renders fio's "steadystate" block:
//   {"ss": "iops:10.000000%", "duration": 2, "attained": 1, "criterion": "2.79%", "max_deviation": 36083.0,
//    "slope": 0.0, "data": {"bw_mean": .., "iops_mean": .., "iops": [..], "bw": [..]}}
// with ss=lat|lat_slope also fio 3.42's "lat_mean" and "lat_ns" (before "iops"). bw in bytes/s; slope per
// second; a latency sample is the mean clat (ns, whole) of the ios completed in its interval, 0 when none
// completed (fio's); criterion is the measured value (a percent of the mean for % limits).
// Threads: owned by one worker.
#include <cstdint>
#include <deque>
#include <nlohmann/json.hpp>

#include "job/steady_state_options.h"

namespace sluice {

class SteadyStateMonitor {
 public:
  // The job's ss options; start_ns: when sampling time begins (the measured start); samples begin at start_ns +
  // ss_ramp.
  SteadyStateMonitor(const SteadyStateOptions& options, std::uint64_t start_ns);

  // The job's counts so far, all directions: bytes, ios, and the sum and count of completion latencies.
  struct Totals {
    std::uint64_t bytes = 0;
    std::uint64_t ios = 0;
    double clat_sum_ns = 0;
    std::uint64_t clat_samples = 0;
  };

  // Cheap unless a sample is due. Returns true once steady state is attained.
  bool update(std::uint64_t now_ns, const Totals& totals);
  bool attained() const noexcept { return attained_; }
  nlohmann::json to_json() const;

 private:
  void evaluate();
  bool lat() const noexcept {
    return criterion_ == SteadyStateCriterion::kLat || criterion_ == SteadyStateCriterion::kLatSlope;
  }

  SteadyStateCriterion criterion_;
  double limit_;
  bool percent_;
  std::uint64_t duration_ns_;
  std::uint64_t interval_ns_;
  std::size_t window_;
  std::uint64_t next_ns_;
  bool primed_ = false;
  Totals last_;
  std::deque<double> iops_;
  std::deque<double> bw_;
  std::deque<double> lat_;  // whole nanoseconds, as fio keeps them
  bool attained_ = false;
  double criterion_value_ = 0;  // measured: deviation or slope (percent of the mean for % limits)
  double max_deviation_ = 0;
  double slope_ = 0;
};

}  // namespace sluice
