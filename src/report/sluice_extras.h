#pragma once
// Values of sluice's extensions that both reporters show (normal text and the JSON "sluice" section).
// Private to the report module; pure functions of a JobResult.
#include "stats/act_slices.h"
#include "stats/result.h"

namespace sluice::report {

// --profile=act: the slices of every act job of the run added up (fio sums its jobs' slices); empty without.
inline std::vector<ActSlice> act_slices_of(const RunResult& result) {
  std::vector<ActSlice> sum;
  for (const GroupResult& group : result.groups) {
    for (const JobResult& job : group.jobs) {
      if (sum.size() < job.act_slices.size()) sum.resize(job.act_slices.size());
      for (std::size_t s = 0; s < job.act_slices.size(); ++s) {
        for (std::size_t i = 0; i < sum[s].size(); ++i) sum[s][i] += job.act_slices[s][i];
      }
    }
  }
  return sum;
}

// rw=randrmw: completed read-then-write transactions per second of measured runtime (0 without runtime).
inline double rmw_transactions_per_second(const JobResult& job) noexcept {
  if (job.runtime_ns == 0) return 0.0;
  return static_cast<double>(job.rmw_transactions) * 1e9 / static_cast<double>(job.runtime_ns);
}

}  // namespace sluice::report
