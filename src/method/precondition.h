#pragma once
// sluice precondition: SNIA PTS workload-independent preconditioning (the area written sequentially, twice,
// in 128 KiB blocks, direct), then optionally the test workload in rounds until SNIA's steady-state rule
// holds over a window of rounds (stats/steady_state.h: snia_steady on the per-round IOPS).
//
// Safety is the runner's: block devices holding a filesystem, partition table, RAID or LVM signature are
// refused unless allow_destructive; mounted devices always. Only the named file or device is written; a
// missing file is created (sparse, then filled by the first pass).
#include <chrono>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "job/job_spec.h"
#include "stats/result.h"

namespace sluice {

struct PreconditionRequest {
  std::string filename;
  std::uint64_t size = 0;  // bytes; 0 = the existing file's or device's size
  std::uint64_t block_size = 128 * 1024;
  std::uint32_t passes = 2;
  std::uint32_t iodepth = 16;  // of the sequential passes
  bool allow_destructive = false;
  bool status_line = true;
  // --until-steady: the test workload's jobs (filename and size are filled in from above when missing;
  // runtime and time_based are set to one round). Empty = no rounds.
  std::vector<JobSpec> workload;
  std::chrono::nanoseconds round{std::chrono::seconds(60)};
  std::uint32_t max_rounds = 25;
  std::size_t window = 5;
  std::function<void(const std::string&)> progress;  // one line per pass and per round; empty = stderr
};

struct PreconditionPass {
  std::uint64_t bytes = 0;
  double seconds = 0;
  double mib_per_s = 0;
};

struct PreconditionRound {
  std::uint32_t round = 0;  // from 1
  double iops = 0;          // every job and direction of the round together
  double lat_mean_ns = 0;   // mean of lat over every io of the round
};

struct PreconditionResult {
  std::vector<PreconditionPass> passes;
  std::vector<PreconditionRound> rounds;
  bool steady = false;
  std::optional<std::uint32_t> steady_round;  // the round that completed the first steady window
  bool created_file = false;
  bool direct = true;  // false when the file system refused O_DIRECT
  RunResult last_run;  // the last round's (else last pass's) full result
};

// The default test workload of --until-steady: 4 KiB random writes, io_uring (libaio where io_uring is
// unavailable), iodepth 32, direct. As command-line job options, so user options can follow and override.
std::vector<std::string> default_workload_options();

// Runs the passes and the rounds. Throws UserError (bad request, unsafe target). Honors SIGINT: returns what
// was measured, with last_run.interrupted set.
PreconditionResult run_precondition(const PreconditionRequest& request);

// Pure parts, for tests. round_of: the round's numbers from its result. pass_of: a pass's numbers.
PreconditionRound round_of(const RunResult& run, std::uint32_t number);
PreconditionPass pass_of(const RunResult& run);
// The round at which SNIA's rule first holds over the last `window` rounds' IOPS, if it does.
std::optional<std::uint32_t> first_steady_round(std::span<const PreconditionRound> rounds, std::size_t window);

nlohmann::json precondition_json(const PreconditionResult& result);  // the "precondition" block
std::string render_precondition_table(const PreconditionResult& result);

}  // namespace sluice
