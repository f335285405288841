#include "run/thread_placement.h"

#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace sluice {
namespace {

// <linux/ioprio.h> is not in every libc's headers; these are the kernel ABI values.
constexpr int kIoprioWhoProcess = 1;  // with who = 0: the calling thread
constexpr int kIoprioClassShift = 13;

std::string set_affinity(const PlacementOptions& placement, int jobnum) {
  const std::vector<std::uint32_t> cpus = cpus_for_clone(placement, jobnum);
  cpu_set_t set;
  CPU_ZERO(&set);
  for (std::uint32_t c : cpus) {
    if (c < CPU_SETSIZE) CPU_SET(c, &set);
  }
  if (sched_setaffinity(0, sizeof set, &set) == 0) return "";
  std::string list;
  for (std::uint32_t c : cpus) list += (list.empty() ? "" : ",") + std::to_string(c);
  return "cpus_allowed: cannot run on CPU(s) " + list + ": " + std::strerror(errno);
}

std::string set_ioprio(const PlacementOptions& placement) {
  // fio's ioprio_value: a class alone means level 0, a level alone the best-effort class.
  const int value = placement.default_ioprio();
  const int io_class = value >> kIoprioClassShift;
  const int level = value & 7;
  if (syscall(SYS_ioprio_set, kIoprioWhoProcess, 0, value) == 0) return "";
  return "prio/prioclass: ioprio_set(class " + std::to_string(io_class) + ", level " + std::to_string(level) +
         ") failed: " + std::strerror(errno) + (errno == EPERM ? " (the realtime class needs CAP_SYS_ADMIN)" : "");
}

// The nice value of the calling thread (on Linux a thread has its own; fio's jobs are processes).
std::string set_nice(int value) {
  if (setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), value) == 0) return "";
  return "nice: setpriority(" + std::to_string(value) + ") failed: " + std::strerror(errno) +
         (errno == EPERM || errno == EACCES ? " (a negative nice value needs CAP_SYS_NICE)" : "");
}

}  // namespace

std::vector<std::uint32_t> cpus_for_clone(const PlacementOptions& placement, int jobnum) {
  if (!placement.cpus_allowed_split || placement.cpus_allowed.empty()) return placement.cpus_allowed;
  const std::size_t index = static_cast<std::size_t>(jobnum < 0 ? 0 : jobnum) % placement.cpus_allowed.size();
  return {placement.cpus_allowed[index]};
}

std::string apply_thread_placement(const PlacementOptions& placement, int jobnum) {
  if (!placement.cpus_allowed.empty()) {
    std::string error = set_affinity(placement, jobnum);
    if (!error.empty()) return error;
  }
  if (std::string error = apply_numa_cpu_nodes(placement); !error.empty()) return error;
  if (placement.nice) {
    std::string error = set_nice(*placement.nice);
    if (!error.empty()) return error;
  }
  if (placement.ioprio_class >= 0 || placement.ioprio >= 0) return set_ioprio(placement);
  return "";
}

}  // namespace sluice
