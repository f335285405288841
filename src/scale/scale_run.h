#pragma once
// A `sluice scale` series: for each N, `runs` runs of the command (each after the --prepare command), all
// output appended to the log; the first failing run stops the series.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/child_run.h"
#include "observe/virtualization.h"
#include "scale/scale_plan.h"

namespace sluice {

struct ScaleRow {
  std::uint32_t n = 0;
  std::vector<ChildRun> runs;  // the successful runs at this N
};

struct ScaleFailure {
  std::uint32_t n = 0;
  std::uint32_t run = 0;  // 1-based
  bool in_prepare = false;
  ChildRun child;
  std::string command;  // the command line that failed
};

struct ScaleResult {
  ScaleOptions options;
  std::uint64_t timestamp_ms = 0;  // wall clock at the start
  unsigned cpus = 0;
  std::vector<ScaleRow> rows;  // complete rows only (every run of that N succeeded)
  bool failed = false;
  ScaleFailure failure;
  bool interrupted = false;
  nlohmann::json environment;  // observe/environment.h's snapshot
  Virtualization virtualization;
};

// Runs the series. Throws UserError when the log cannot be opened (before anything runs).
ScaleResult run_scale(const ScaleOptions& options);

}  // namespace sluice
