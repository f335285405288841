#include "run/cpu_snapshot.h"

#include <sys/resource.h>

namespace sluice {
namespace {

double seconds_of(const timeval& tv) noexcept {
  return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6;
}

}  // namespace

CpuSnapshot CpuSnapshot::of_this_thread() noexcept {
  rusage usage{};
  getrusage(RUSAGE_THREAD, &usage);
  return {.user_seconds = seconds_of(usage.ru_utime),
          .system_seconds = seconds_of(usage.ru_stime),
          .context_switches = static_cast<std::uint64_t>(usage.ru_nvcsw + usage.ru_nivcsw),
          .major_faults = static_cast<std::uint64_t>(usage.ru_majflt),
          .minor_faults = static_cast<std::uint64_t>(usage.ru_minflt)};
}

CpuUsage CpuSnapshot::operator-(const CpuSnapshot& since) const noexcept {
  CpuUsage used;
  used.user_seconds = user_seconds - since.user_seconds;
  used.system_seconds = system_seconds - since.system_seconds;
  used.context_switches = context_switches - since.context_switches;
  used.major_faults = major_faults - since.major_faults;
  used.minor_faults = minor_faults - since.minor_faults;
  return used;
}

}  // namespace sluice
