#pragma once
// Internal to method/interfere: one phase of `sluice interfere` (the foreground alone, or beside its background
// writers) run through the runner while the writeback timeline is sampled.
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "method/interfere.h"

namespace sluice {

// The background writers of a loaded phase: one file each, `bytes_each` long, written in o.bg_bs blocks.
struct BackgroundWriters {
  std::vector<std::string> files;  // empty: an idle phase
  std::uint64_t bytes_each = 0;
};

// Runs the foreground at `threads` threads for `runtime` beside `bg`, samples /proc/meminfo and the device once a
// second, and resolves the dirty limits in force at the start (a trial's knobs are set before). Writes back what
// the phase left dirty (syncfs) before it returns. The flood verdict is left to the caller.
PhaseResult run_phase(const InterfereOptions& o, const std::string& name, std::uint32_t threads,
                      std::chrono::nanoseconds runtime, const BackgroundWriters& bg, const std::string& device);

// The dirty limits in force now: resolve_dirty_limits() from meminfo and vm.dirty_*, with the limit and the
// background threshold replaced by the kernel's own (/proc/vmstat) where the kernel exports them.
DirtyLimits current_dirty_limits(const std::string& proc_root);

// syncfs on the filesystem holding `dir`: the next phase starts from a quiet page cache.
void write_back_filesystem(const std::string& dir);

}  // namespace sluice
