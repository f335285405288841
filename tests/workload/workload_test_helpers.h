#pragma once
// Small builders shared by the workload tests: a JobSpec for one rw mode and a loop draining an IoPattern.
#include <cstdint>
#include <vector>

#include "job/job_spec.h"
#include "workload/io_pattern.h"

namespace sluice::testing {

inline constexpr std::uint64_t kKiB = 1024;
inline constexpr std::uint64_t kMiB = 1024 * kKiB;

inline JobSpec job_for(RwMode rw, std::uint64_t bs = 4096) {
  JobSpec job;
  job.workload.rw = rw;
  job.workload.bs = {bs, bs, bs};
  return job;
}

// Every io next() returns, up to `limit` (time_based patterns never end on their own).
inline std::vector<NextIo> drain(IoPattern& pattern, std::size_t limit = 10'000'000) {
  std::vector<NextIo> ios;
  NextIo io;
  while (ios.size() < limit && pattern.next(io)) ios.push_back(io);
  return ios;
}

inline std::uint64_t total_bytes(const std::vector<NextIo>& ios) {
  std::uint64_t sum = 0;
  for (const auto& io : ios) sum += io.length;
  return sum;
}

}  // namespace sluice::testing
