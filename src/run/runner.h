#pragma once
// Runner: executes a plan. Resolves and checks every target before anything is written, lays files out,
// runs the groups one after another (the jobs of a group side by side, all released by one start event),
// shows the live status line on a terminal, and collects a RunResult with disk statistics and the
// environment. A stop request (SIGINT) ends the current group at once and keeps what was measured.
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "job/job_spec.h"
#include "stats/result.h"

namespace sluice {

struct RunnerOptions {
  bool allow_destructive = false;
  bool status_line = true;  // shown only when stderr is a terminal...
  bool status_line_forced = false;  // ...unless forced (--eta=always)
  std::chrono::nanoseconds status_interval{std::chrono::seconds(1)};
  std::chrono::nanoseconds series_interval{std::chrono::seconds(1)};
  bool capture_environment = true;
  // Called on progress of laying out files and for one-line notices ("laid out ..."); default: stderr.
  std::function<void(const std::string&)> notice;
  // The methodology lint (run/lint.h): its warnings go to RunResult::warnings and, as one block, to notice.
  bool lint = true;
};

// Throws UserError for problems found before any I/O (bad target, unsafe device, engine unavailable).
RunResult run_jobs(const std::vector<JobSpec>& jobs, const RunnerOptions& options);

}  // namespace sluice
