#pragma once
// Did the background writer of `sluice interfere` flood the page cache as a bulk copy does? A loaded phase
// tests writeback interference only when the writer pushed dirty data up to the point where the kernel
// throttles writers (it then waits in balance_dirty_pages and writeback runs flat out); below it, the flood
// stayed in memory or writeback kept up, and the foreground competed with much less. Pure functions of a
// phase's per-second samples, so tests feed fabricated timelines.
//
// The kernel (mm/page-writeback.c) compares Dirty + Writeback (NR_FILE_DIRTY + NR_WRITEBACK) against its
// thresholds and lets a writer run free up to the "freerun ceiling", (limit + background) / 2; above it the
// writer is throttled towards the setpoint between that ceiling and the limit, so Dirty + Writeback hovers
// there and rarely touches the limit itself. sluice calls that ceiling the throttle point and counts the flood
// as reached when Dirty + Writeback came within 5% of it. The thresholds are the kernel's own at each sample
// (WritebackSample::dirty_threshold_bytes, from /proc/vmstat) when it exports them, else the phase's limits
// estimated from /proc/meminfo, which overstate the kernel's by its reserves (measured: a plateau 5% below).
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "method/interfere_explain.h"
#include "observe/writeback_sampler.h"

namespace sluice {

// The point above which the kernel throttles writers: (limit + background) / 2.
std::uint64_t throttle_point(const DirtyLimits& limits);

// Why the background file is the size it is.
enum class BackgroundSizing {
  kFromLimit,      // 1.25 x the dirty limit (at least 64 MiB): room enough
  kCappedBySpace,  // the filesystem's free space (less the foreground file and a margin) was smaller
  kUserSize,       // --bg-size
};

struct FloodInput {
  DirtyLimits limits;                    // in force during the phase
  std::vector<WritebackSample> samples;  // the phase's timeline, one a second
  double writer_bps = 0;                 // all background writers together, bytes/s into the page cache
  double writer_alone_bps = 0;           // one writer alone, measured before the phases (0: not measured)
  std::uint32_t writers = 1;
  std::uint64_t writer_bs = 0;
  std::uint64_t background_bytes = 0;  // the background files' total size
  BackgroundSizing sizing = BackgroundSizing::kFromLimit;
  std::uint64_t free_bytes = 0;  // the filesystem's free space when the size was chosen
  double phase_seconds = 0;
  bool device_known = true;  // false: the file is not on a block device sluice can read
};

struct FloodVerdict {
  bool reached = false;                    // Dirty + Writeback reached the throttle point
  std::uint64_t throttle_bytes = 0;        // the throttle point where Dirty + Writeback came closest to it
  std::uint64_t limit_bytes = 0;           // the dirty limit then
  std::uint64_t peak_dirty_bytes = 0;      // highest Dirty
  std::uint64_t peak_in_memory_bytes = 0;  // highest Dirty + Writeback (what the kernel compares)
  double first_reached_s = -1;             // first sample at the throttle point, -1 = never
  double seconds_at_limit = 0;             // time at or above it (samples x their spacing)
  double writer_bps = 0;
  double device_bps = 0;  // the device's mean write rate over the seconds it wrote
  bool device_wrote = false;
  double seconds_at_background = 0;  // time Dirty + Writeback held at the background threshold (within 5%)
  double background_device_bps = 0;  // the device's write rate during that time
  std::string why;                   // when not reached: the cause in plain words (empty when reached)
  std::string text;                  // one line, for the report
};

// Judges one loaded phase (or trial). When not reached, `why` names the first cause that applies: the writer
// wrote nothing; the background files were smaller than the throttle point (free space or --bg-size); Dirty +
// Writeback held at the background threshold for 3 s or more (writeback drained the writer as fast as it
// wrote); the writer was no faster than the device wrote back; the phase was too short for the net fill rate.
FloodVerdict verify_flood(const FloodInput& in);

nlohmann::json flood_json(const FloodVerdict& v);

}  // namespace sluice
