#pragma once
// sluice quick, the pure part: how big the test file is (sizing) and how the time budget is shared among the
// tests (budget split). No I/O here: the driver (quick.cpp) measures free space, RAM and the layout speed and
// passes them in, so tests can check every rule with made-up machines.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/error.h"

namespace sluice {

// --- sizing -------------------------------------------------------------------------------------------------
// Rules (the methodology lint's): the test area should be at least 10x every cache that can hold it, so reads
// do not measure a cache. With direct I/O the page cache is bypassed and RAM does not count; the device's own
// cache (and the filesystem's extent cache) still flatter a small file, so a few GiB are preferred anyway.
// The file never takes more than half of the free space, and its layout must fit its share of the budget.
inline constexpr std::uint64_t kQuickPreferredSize = 4ull << 30;  // 4 GiB: the "few GiB" when caches allow
inline constexpr std::uint64_t kQuickMinimumSize = 16ull << 20;   // below this the random tests mean little
inline constexpr std::uint64_t kQuickSizeAlign = 1ull << 20;      // sizes are whole MiB (1 MiB seq blocks)
inline constexpr double kQuickFreeShare = 0.5;                    // of the free space, at most

struct SizingInputs {
  std::uint64_t free_bytes = 0;             // free space of the filesystem (for an unprivileged user)
  std::uint64_t ram_bytes = 0;              // MemTotal
  std::uint64_t device_cache_bytes = 0;     // the device's cache, when known (0 = unknown)
  bool direct = true;                       // O_DIRECT works on the filesystem
  double layout_bytes_per_second = 0;       // measured sequential write speed; 0 = unknown (no budget cap)
  std::chrono::nanoseconds layout_time{0};  // the time the layout may take
  std::optional<std::uint64_t> requested;   // --size: the user's size, used as given (within free space)
};

enum class SizeLimit { kNone, kFreeSpace, kBudget, kRequested };

struct SizingDecision {
  std::uint64_t size = 0;         // bytes of the test file, a multiple of kQuickSizeAlign
  std::uint64_t wanted = 0;       // what the cache rules ask for (max(10x caches, preferred))
  std::uint64_t cache_bytes = 0;  // the caches that can hold the file (RAM only for buffered I/O)
  SizeLimit limited_by = SizeLimit::kNone;
  std::vector<Problem> warnings;  // shrunk below the rules, too small for the caches, ...
};

// Throws UserError when even kQuickMinimumSize does not fit in the free space (or --size exceeds it).
SizingDecision decide_size(const SizingInputs& in);

// --- budget split -------------------------------------------------------------------------------------------
// Shares of the budget, in percent (they sum to 100). The layout counts: it gets its share first (its size is
// chosen to fit it); whatever it really took, the tests that remain share what remains in proportion to
// their weights, so an early overrun is absorbed by the later tests and the total stays near the budget.
enum class QuickStep {
  kLayout,             // 15: writing the test file with random data
  kSeqWrite,           // 10: 1 MiB sequential write
  kSeqRead,            // 10: 1 MiB sequential read
  kRandReadCapacity,   // 20: 4 KiB random read, capacity search under the latency limit
  kRandWriteCapacity,  // 20: 4 KiB random write, ditto
  kRandReadDepth1,     //  5: 4 KiB random read at depth 1 (latency)
  kRandWriteDepth1,    //  5: 4 KiB random write at depth 1
  kFsyncWrite,         // 15: 16 KiB random write + fsync each, psync (the database case)
};
inline constexpr std::size_t kQuickStepCount = 8;

double step_weight(QuickStep step) noexcept;  // percent
std::string_view step_name(QuickStep step) noexcept;

// The time step `step` may use when `remaining` is left and the steps from `step` to the last are still to run.
std::chrono::nanoseconds step_slot(QuickStep step, std::chrono::nanoseconds remaining) noexcept;

// A fixed-length test's slot split into ramp (not measured) and runtime: ramp is 15% of the slot up to 1 s;
// runtime is never below 200 ms.
struct TestTiming {
  std::chrono::nanoseconds ramp{0};
  std::chrono::nanoseconds runtime{0};
};
TestTiming timing_for_slot(std::chrono::nanoseconds slot) noexcept;

}  // namespace sluice
