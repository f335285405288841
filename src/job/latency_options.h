#pragma once
// LatencyOptions and the types of its fields: a part of JobSpec (job/job_spec.h composes the parts). Include this
// header, not job_spec.h, where only this part is needed.
#include <chrono>

namespace sluice {

// Latency bounds: a job ends past max_latency; fio's latency_target searches the depth that keeps it.
struct LatencyOptions {
  std::chrono::nanoseconds max_latency{0};  // stop the job when one io's completion latency exceeds this
  // fio's latency_target search (run/latency_target.h): the depth at which latency_percentile percent of ios
  // stay within latency_target over each latency_window; 0 = off.
  std::chrono::nanoseconds latency_target{0};
  std::chrono::nanoseconds latency_window{0};
  double latency_percentile = 100.0;
  bool latency_run = false;  // keep adjusting the depth until the job ends, instead of stopping once found
};

}  // namespace sluice
