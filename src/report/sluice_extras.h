#pragma once
// Values of sluice's extensions that both reporters show (normal text and the JSON "sluice" section).
// Private to the report module; pure functions of a JobResult.
#include "stats/result.h"

namespace sluice::report {

// rw=randrmw: completed read-then-write transactions per second of measured runtime (0 without runtime).
inline double rmw_transactions_per_second(const JobResult& job) noexcept {
  if (job.runtime_ns == 0) return 0.0;
  return static_cast<double>(job.rmw_transactions) * 1e9 / static_cast<double>(job.runtime_ns);
}

}  // namespace sluice::report
