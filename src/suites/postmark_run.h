#pragma once
// run_postmark: one PostMark `run` on the real file system: checks the locations, creates the
// subdirectories, then the three timed phases (pool creation, transactions, deletion of what is left), and
// removes the subdirectories it created. Times are kept both as PostMark keeps them (time(), whole seconds)
// and to the nanosecond.
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "suites/postmark_config.h"
#include "suites/postmark_files.h"
#include "suites/postmark_workload.h"

namespace sluice {

struct PostmarkRunResult {
  enum class End { kComplete, kOutOfFiles, kInterrupted };

  PostmarkConfig config;
  std::string cwd;                // the working directory PostMark's `show` prints
  std::string report_file;        // `run FILE`: the report is appended there
  std::int64_t timestamp_ms = 0;  // wall clock at the start
  End end = End::kComplete;
  PostmarkCounts counts;
  std::int64_t pool_created = 0;   // files created by the pool phase (config.number when complete)
  std::int64_t deleted_alone = 0;  // files deleted by the final phase
  std::int64_t transactions_done = 0;
  int progress_ticks = 0;  // PostMark's dots
  // time() at the phase boundaries, as PostMark takes them.
  std::int64_t start_s = 0, transactions_start_s = 0, transactions_end_s = 0, end_s = 0;
  // The same boundaries from the monotonic clock.
  std::uint64_t creation_ns = 0, transactions_ns = 0, deletion_ns = 0;
  PostmarkLatencies latencies;
  nlohmann::json environment;  // observe/environment.h, of the locations
};

// The free space a run needs in each location and the check of it: every location must be an existing,
// writable directory with room for its share of the pool (number files of the mean size, each rounded up to
// the file system block). Throws UserError naming the location, what is free and what is needed.
void check_postmark_locations(const PostmarkConfig& config);

// Runs once. `progress` receives PostMark's progress text ("Creating files...", "Done\n", dots) as it
// happens; `stop` is polled before each file operation of the first two phases (true: skip to the
// deletion phase, which still removes every file created). On an I/O error the files created so far are
// removed and the IoError propagates.
PostmarkRunResult run_postmark(const PostmarkConfig& config, const std::function<void(const std::string&)>& progress,
                               const std::function<bool()>& stop);

}  // namespace sluice
