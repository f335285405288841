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

#include "common/error.h"
#include "job/job_spec.h"
#include "run/plan.h"
#include "stats/result.h"
#include "targets/target_file.h"

namespace sluice {

// What a run is about to do, for checks before anything is written. Every reference outlives the call.
struct RunPreview {
  const std::vector<GroupPlan>& plan;
  // targets[group][job in group]: the resolved files of each job (empty regions for the null engine).
  const std::vector<std::vector<std::vector<TargetFile>>>& targets;
  const nlohmann::json& environment;
};

// The running group's I/O so far (cumulative, since its workers started; a new group starts from zero), for
// live rates elsewhere than the status line (fio's server answers its client's ETA requests with them).
struct LiveTotals {
  PerDirection<std::uint64_t> ios{};
  PerDirection<std::uint64_t> bytes{};
};

struct RunnerOptions {
  bool allow_destructive = false;
  bool status_line = true;          // shown only when stderr is a terminal...
  bool status_line_forced = false;  // ...unless forced (--eta=always)
  std::chrono::nanoseconds status_interval{std::chrono::seconds(1)};
  std::chrono::nanoseconds status_newline{0};  // fio's --eta-newline: end the status line once per period (0 = never)
  std::chrono::nanoseconds series_interval{std::chrono::seconds(1)};
  // --status-interval: every report_interval (when not zero) report_progress gets the run so far: the groups
  // that ended, and the running group's jobs as they are (cumulative, as fio's periodic reports). Called on
  // the runner's thread.
  std::chrono::nanoseconds report_interval{0};
  std::function<void(const RunResult&)> report_progress;
  // Called on the runner's thread at each status refresh (status_interval) with the running group's totals.
  std::function<void(const LiveTotals&)> live_progress;
  bool capture_environment = true;
  // Called on progress of laying out files and for one-line notices ("laid out ..."); default: stderr.
  std::function<void(const std::string&)> notice;
  // Checks of the run as a whole (the methodology lint of method/lint.h installs itself here). before_run is
  // called once every target is resolved and the environment captured, before anything is laid out;
  // after_run once the groups have run. What they return goes to RunResult::warnings.
  std::function<std::vector<Problem>(const RunPreview&)> before_run;
  std::function<std::vector<Problem>(const std::vector<JobSpec>&, const RunResult&)> after_run;
  // Called in each group once its workers are ready (files laid out and open), just before they are released,
  // and once they have all finished, before the files are closed: an MPI run synchronizes its ranks there.
  std::function<void()> before_measure;
  std::function<void()> after_measure;
};

// Throws UserError for problems found before any I/O (bad target, unsafe device, engine unavailable).
RunResult run_jobs(const std::vector<JobSpec>& jobs, const RunnerOptions& options);

}  // namespace sluice
