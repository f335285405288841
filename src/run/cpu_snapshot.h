#pragma once
// CpuSnapshot: the calling thread's CPU time, context switches and page faults at one moment
// (getrusage(RUSAGE_THREAD)); the difference of two is what the thread used between them.
#include "stats/result.h"

namespace sluice {

struct CpuSnapshot {
  double user_seconds = 0;
  double system_seconds = 0;
  std::uint64_t context_switches = 0;  // voluntary + involuntary
  std::uint64_t major_faults = 0;
  std::uint64_t minor_faults = 0;

  // The calling thread's counters now (one syscall).
  static CpuSnapshot of_this_thread() noexcept;
  // What was used from `since` to this snapshot.
  CpuUsage operator-(const CpuSnapshot& since) const noexcept;
};

}  // namespace sluice
