#pragma once
// One bonnie++ 2.00a run: the IO tests on <dir>/Bonnie.<pid> (per-char write, block write, rewrite, per-char
// read, block read, random seeks) and the file tests in <dir>/Bonnie.<pid>/ (sequential and random create,
// stat, delete), timed and counted as bonnie++ 2.00a times and counts them. Every file and directory goes
// through the created-files journal and is removed at the end, on an error and on SIGINT/SIGTERM.
#include <array>
#include <cstdint>
#include <functional>
#include <string>

#include "suites/bonnie_options.h"

namespace sluice {

// bonnie++'s tests_t, in its order (the report's and CSV's column order).
enum class BonnieTest {
  kByteWrite,
  kBlockWrite,
  kRewrite,
  kByteRead,
  kBlockRead,
  kSeeks,
  kCreateSeq,
  kStatSeq,
  kDeleteSeq,
  kCreateRandom,
  kStatRandom,
  kDeleteRandom,
};
inline constexpr std::size_t kBonnieTestCount = 12;

// bonnie++'s name of a test ("putc", "put_block", ... as in its CSV header; "seq_create", ...).
const char* bonnie_test_key(BonnieTest test);

struct BonniePhase {
  bool ran = false;
  double seconds = 0;       // bonnie++'s elapsed time (for seeks: first seeker start to last seeker end)
  double cpu_seconds = 0;   // user + system (for seeks: the seekers' sum)
  double max_latency = 0;   // seconds: the slowest single operation (bonnie++'s latency column)
  std::uint64_t ops = 0;    // operations timed (chunks, seeks or files)
  std::uint64_t bytes = 0;  // bytes read or written by the phase
};

struct BonnieResult {
  std::array<BonniePhase, kBonnieTestCount> phases{};
  std::uint32_t seed = 0;
  bool interrupted = false;
  std::string machine;
  std::string path;  // the IO-test file / file-test directory: <dir>/Bonnie.<pid>
  const BonniePhase& operator[](BonnieTest t) const { return phases[static_cast<std::size_t>(t)]; }
  BonniePhase& operator[](BonnieTest t) { return phases[static_cast<std::size_t>(t)]; }
};

// Runs the tests `options` ask for. `progress` receives bonnie++'s progress text ("Writing a byte at a
// time...", "done\n"); `stop` is polled between operations (an interrupted run keeps the phases it
// finished). Checks the directory and its free space before writing anything. Throws UserError / IoError.
BonnieResult run_bonnie(const BonnieOptions& options, const std::function<void(const std::string&)>& progress,
                        const std::function<bool()>& stop);

}  // namespace sluice
