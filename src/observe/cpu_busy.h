#pragma once
// How busy the machine's CPUs are: the aggregate "cpu" line of <proc>/stat, read twice.
#include <chrono>
#include <optional>
#include <string>

#include "observe/system_roots.h"

namespace sluice {

struct CpuTimes {
  unsigned long long busy = 0;   // user, nice, system, irq, softirq, steal (jiffies)
  unsigned long long total = 0;  // busy + idle + iowait
};

// The aggregate CPU times; nullopt when <proc>/stat cannot be read.
std::optional<CpuTimes> read_cpu_times(const SystemRoots& roots = {});

// The share of all CPUs' time spent busy between two readings (0 to 1); nullopt when no time passed.
std::optional<double> busy_share(const CpuTimes& before, const CpuTimes& after);

// Sleeps `window` and returns the busy share over it; nullopt when <proc>/stat cannot be read.
std::optional<double> sample_cpu_busy(std::chrono::milliseconds window, const SystemRoots& roots = {});

}  // namespace sluice
