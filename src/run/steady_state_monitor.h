#pragma once
// SteadyStateMonitor: fio's steadystate / ss= for one job. Samples the job's iops and bandwidth every
// ss_interval after ss_ramp, keeps the last ss_dur of samples, and says when the chosen criterion holds over
// a full window (the job then ends). to_json() renders fio 3.33's "steadystate" block:
//   {"ss": "iops:10.000000%", "duration": 2, "attained": 1, "criterion": "2.79%", "max_deviation": 36083.0,
//    "slope": 0.0, "data": {"bw_mean": .., "iops_mean": .., "iops": [..], "bw": [..]}}
// bw in bytes/s; slope per second; criterion is the measured value (a percent of the mean for % limits).
// Threads: owned by one worker.
#include <cstdint>
#include <deque>

#include <nlohmann/json.hpp>

#include "job/job_spec.h"

namespace sluice {

class SteadyStateMonitor {
 public:
  // start_ns: when sampling time begins (the measured start); samples begin at start_ns + ss_ramp.
  SteadyStateMonitor(const JobSpec& job, std::uint64_t start_ns);

  // Cheap unless a sample is due. total_bytes / total_ios: the job's counts so far (all directions).
  // Returns true once steady state is attained.
  bool update(std::uint64_t now_ns, std::uint64_t total_bytes, std::uint64_t total_ios);
  bool attained() const noexcept { return attained_; }
  nlohmann::json to_json() const;

 private:
  void evaluate();

  SteadyStateCriterion criterion_;
  double limit_;
  bool percent_;
  std::uint64_t duration_ns_;
  std::uint64_t interval_ns_;
  std::size_t window_;
  std::uint64_t next_ns_;
  bool primed_ = false;
  std::uint64_t last_bytes_ = 0;
  std::uint64_t last_ios_ = 0;
  std::deque<double> iops_;
  std::deque<double> bw_;
  bool attained_ = false;
  double criterion_value_ = 0;  // measured: deviation or slope (percent of the mean for % limits)
  double max_deviation_ = 0;
  double slope_ = 0;
};

}  // namespace sluice
