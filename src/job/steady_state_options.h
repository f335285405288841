#pragma once
// SteadyStateOptions and the types of its fields: a part of JobSpec (job/job_spec.h composes the parts). Include
// this header, not job_spec.h, where only this part is needed.
#include <chrono>

namespace sluice {

enum class SteadyStateCriterion { kNone, kIopsSlope, kIops, kBwSlope, kBw, kLatSlope, kLat };  // fio's ss= criteria

// fio's steadystate (ss): the criterion, its limit and window, after which the job ends early.
struct SteadyStateOptions {
  SteadyStateCriterion ss_criterion = SteadyStateCriterion::kNone;
  double ss_limit = 0;  // percent (ss=iops:10%) or absolute slope / deviation (lat: ns)
  bool ss_limit_is_percent = false;
  std::chrono::nanoseconds ss_duration{0};
  std::chrono::nanoseconds ss_ramp{0};
  std::chrono::nanoseconds ss_interval{std::chrono::seconds(1)};
};

}  // namespace sluice
