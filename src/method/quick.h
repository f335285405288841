#pragma once
// sluice quick: a short fixed profile that answers what a user first wants to know of a storage system:
// 1 MiB sequential write and read bandwidth, 4 KiB random read and write IOPS and latency at depth 1 and 32,
// on a test file in a fresh temporary directory that is removed afterwards.
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "spec/job_spec.h"
#include "stats/result.h"

namespace sluice {

struct QuickOptions {
  std::string directory = ".";                 // the filesystem to test; the temp dir is made inside it
  std::uint64_t file_size = 1ull << 30;        // 1 GiB
  std::chrono::nanoseconds runtime = std::chrono::seconds(5);    // per test, measured
  std::chrono::nanoseconds ramp_time = std::chrono::seconds(1);  // per test, not measured
  bool status_line = true;
};

struct QuickRow {
  std::string test;        // "4 KiB random read, depth 32"
  Direction direction = Direction::kRead;
  double iops = 0;
  double bytes_per_second = 0;
  double lat_mean_ns = 0;
  std::uint64_t lat_p99_ns = 0;
  std::uint64_t lat_p999_ns = 0;
};

struct QuickReport {
  std::string file;        // the test file (already removed)
  std::uint64_t file_size = 0;
  std::string engine;
  bool direct = true;
  std::vector<QuickRow> rows;
  RunResult run;           // everything measured, for JSON
};

// Runs the profile. Throws UserError when DIR is unusable. Removes what it created, also when interrupted.
QuickReport run_quick(const QuickOptions& options);

std::string render_quick_table(const QuickReport& report);
nlohmann::json quick_summary_json(const QuickReport& report);

}  // namespace sluice
