#pragma once
// The arithmetic behind `sluice interfere`'s explanation: the kernel's dirty limits in bytes and what they
// mean in seconds of device writing. Pure functions of numbers read from /proc, so tests feed synthetic ones.
//
// The kernel (mm/page-writeback.c, domain_dirty_limits) computes the limits against "dirtyable" memory:
// free pages plus the file LRU pages (Active(file) + Inactive(file)), less a small reserve. sluice uses
//   dirtyable ~= MemFree + Active(file) + Inactive(file)        (the reserve, tens of MiB, is ignored)
//   limit      = vm.dirty_bytes            if non-zero, else vm.dirty_ratio% of dirtyable
//   background = vm.dirty_background_bytes if non-zero, else vm.dirty_background_ratio% of dirtyable
//   and, as the kernel does, background = limit / 2 when it is not below the limit.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "observe/vm_dirty_settings.h"
#include "observe/writeback_sampler.h"

namespace sluice {

struct DirtyLimits {
  std::uint64_t dirtyable_bytes = 0;
  std::uint64_t limit_bytes = 0;       // writers are throttled above this much dirty page cache
  std::uint64_t background_bytes = 0;  // background writeback starts above this
  bool limit_from_bytes = false;       // vm.dirty_bytes was set (else the ratio applied)
  bool background_from_bytes = false;
  bool from_kernel = false;  // limit and background are the kernel's own (/proc/vmstat), not estimated
};

DirtyLimits resolve_dirty_limits(const MemInfo& memory, const VmDirtySettings& vm);

// What the explanation is computed from. Rates in bytes per second; 0 = not measured.
struct ExplainInput {
  DirtyLimits limits;
  VmDirtySettings vm;
  double device_write_bps = 0;         // the highest write rate the device showed in any phase (a lower bound of
                                       // what it can do, so the seconds below are upper bounds)
  double background_bps = 0;           // the background writer's own rate (into the page cache)
  std::uint64_t peak_dirty_bytes = 0;  // highest /proc/meminfo Dirty seen in the loaded phase
  std::uint64_t peak_writeback_bytes = 0;
  double slowdown = 0;          // idle fg IOPS / loaded fg IOPS (largest over thread counts)
  double phase_seconds = 0;     // length of one loaded phase
  double plateau_start_s = -1;  // when Dirty levelled off in a loaded phase (find_dirty_plateau), -1 = never
  std::uint64_t plateau_bytes = 0;
};

// Where Dirty stops growing while the writer keeps writing: the first run of >= `run` samples, all within 5%
// of the run's first value and above 64 MiB. That level is the kernel's effective background threshold, which
// the estimate from /proc/meminfo can overstate (the kernel's dirtyable memory excludes reserves).
struct DirtyPlateau {
  double start_s = -1;  // -1 = no plateau
  std::uint64_t bytes = 0;
};
DirtyPlateau find_dirty_plateau(const std::vector<double>& t_s, const std::vector<std::uint64_t>& dirty_bytes,
                                std::size_t run = 5);

struct Explanation {
  double limit_seconds = 0;         // limit_bytes / device_write_bps
  double background_seconds = 0;    // background_bytes / device_write_bps
  double fill_seconds = 0;          // time for the background writer to reach the background threshold
  bool reached_background = false;  // Dirty reached the background threshold during the loaded phase
  std::string text;                 // plain words, several lines
};

Explanation explain(const ExplainInput& in);

}  // namespace sluice
