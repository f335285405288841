#pragma once
// sluice quick: the main job. Within a time budget (default 2 minutes) it answers what a user first wants to
// know of a disk: 1 MiB sequential write and read bandwidth, 4 KiB random read and write capacity under a
// latency limit (with the concurrency and latency found), depth-1 latency of 4 KiB random read and write, and
// fsync'd 16 KiB random write IOPS (the database case). The test file is sized by the methodology's cache
// rules within the free space and the budget (quick_plan.h), laid out in a new temporary directory inside DIR,
// and removed afterwards, also when interrupted (unless --keep).
#include <chrono>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "job/job_spec.h"
#include "method/capacity.h"
#include "method/quick_plan.h"
#include "run/loop_clock.h"
#include "run/runner.h"
#include "stats/result.h"

namespace sluice {

struct QuickOptions {
  std::string directory = ".";  // the filesystem to test; the temp dir is made inside
  std::chrono::nanoseconds budget = std::chrono::seconds(120);
  std::optional<std::uint64_t> size;                             // --size: overrides the sizing rules
  std::chrono::nanoseconds slo = std::chrono::milliseconds(10);  // mean latency limit of the capacity rows
  EngineKind engine = EngineKind::kIoUring;  // falls back (io_uring -> libaio -> psync) if unavailable
  bool keep = false;                         // keep the temp dir and the test file
  bool status_line = true;
  std::function<void(const std::string&)> notice;  // progress lines; default: stderr
  // For tests, so the driver's budget arithmetic runs without wall time passing. clock: what the budget and
  // the elapsed times are counted on (nullptr: the process clock); owned by the caller, outlives the run,
  // read from the calling thread only. run_test: runs one fixed test (empty: run_jobs); a fake returns made-up
  // results and advances the fake clock by the job's ramp_time + runtime.
  ClockSource* clock = nullptr;
  std::function<RunResult(const std::vector<JobSpec>&, const RunnerOptions&)> run_test;
};

// The capacity search (find_capacity in production; tests inject a fake).
using CapacityFunction = std::function<CapacityResult(const CapacityRequest&)>;

struct QuickRow {
  std::string key;   // "seq_write", "seq_read", "randread_capacity", "randwrite_capacity",
                     // "randread_qd1", "randwrite_qd1", "fsync_write"
  std::string test;  // the table's label
  Direction direction = Direction::kRead;
  std::uint32_t iodepth = 1;
  std::uint32_t numjobs = 1;
  double iops = 0;
  double bytes_per_second = 0;
  double lat_mean_ns = 0;
  std::uint64_t lat_p99_ns = 0;
  std::uint64_t lat_p999_ns = 0;
  bool within_slo = true;             // capacity rows: false when even concurrency 1 exceeded the limit
  nlohmann::json capacity = nullptr;  // capacity rows: answer, knee, thrashing, curve (quick's JSON)
};

struct QuickReport {
  std::string directory;  // the temporary directory quick made (removed unless kept)
  std::string file;       // the test file
  std::uint64_t file_size = 0;
  SizingDecision sizing;
  std::string engine;
  bool direct = true;
  bool kept = false;
  std::chrono::nanoseconds budget{0};
  std::chrono::nanoseconds slo{0};
  double layout_seconds = 0;
  double elapsed_seconds = 0;
  std::vector<QuickRow> rows;
  RunResult run;  // every job measured (fio-style jobs), warnings, environment, "sluice.quick"
};

// Runs everything. Throws UserError when DIR is unusable or has too little space. A stop request (SIGINT)
// ends the current test, skips the rest and returns what was measured (run.interrupted set).
QuickReport run_quick(const QuickOptions& options, const CapacityFunction& capacity);

// The table: header line, environment line, one row per test (units, concurrency, latency), notes and the
// warnings block.
std::string render_quick_table(const QuickReport& report);
// The "sluice.quick" JSON section.
nlohmann::json quick_summary_json(const QuickReport& report);

}  // namespace sluice
