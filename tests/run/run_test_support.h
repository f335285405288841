#pragma once
// Shared by the runner tests: runner options that print nothing, and a job on the null engine.
#include <cstdint>
#include <string>

#include "job/job_spec.h"
#include "run/runner.h"

namespace sluice::testing {

// No status line, no environment capture, notices swallowed.
inline RunnerOptions quiet() {
  RunnerOptions options;
  options.status_line = false;
  options.capture_environment = false;
  options.notice = [](const std::string&) {};
  return options;
}

// A job named `name` on the null engine over `size` bytes.
inline JobSpec null_job(const std::string& name, RwMode rw = RwMode::kRandRead, std::uint64_t size = 1 << 20) {
  JobSpec job;
  job.name = name;
  job.engine.ioengine = EngineKind::kNull;
  job.workload.rw = rw;
  job.target.size.bytes = size;
  return job;
}

}  // namespace sluice::testing
