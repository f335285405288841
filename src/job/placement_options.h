#pragma once
// PlacementOptions and the types of its fields: a part of JobSpec (job/job_spec.h composes the parts). Include this
// header, not job_spec.h, where only this part is needed.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/direction.h"

namespace sluice {

// One entry of cmdprio_bssplit: `percent` of the direction's ios of exactly `size` bytes are issued with
// priority `ioprio` (the kernel's class << 13 | level), or with cmdprio_class/cmdprio when ioprio is -1.
struct CmdprioSplitEntry {
  std::uint64_t size = 0;
  std::uint32_t percent = 0;
  std::int32_t ioprio = -1;
};

// numa_mem_policy: the memory policy of the job's thread and its node list (libnuma's node string: "0-1,3",
// "all"; for kPrefer the one node).
struct NumaMemPolicy {
  enum class Mode : std::uint8_t { kNotSet, kDefault, kPrefer, kBind, kInterleave, kLocal };
  Mode mode = Mode::kNotSet;
  std::string nodes;
};

// Where and as whom the job's thread runs: CPUs, NUMA, priorities, nice, user, cgroup.
struct PlacementOptions {
  std::vector<std::uint32_t> cpus_allowed;  // cpus_allowed / cpumask: CPUs the job's thread may run on; empty = any
  bool cpus_allowed_split = false;          // cpus_allowed_policy=split: clone N runs on the N-th CPU of the set
  std::string numa_cpu_nodes;               // numa_cpu_nodes: run on these nodes' CPUs (node string); "" = any
  NumaMemPolicy numa_mem_policy{};
  std::int32_t ioprio_class = -1;  // prioclass (1 realtime, 2 best effort, 3 idle); -1 = not set
  std::int32_t ioprio = -1;        // prio 0-7; -1 = not set
  // Per-io priorities (fio's cmdprio family, libaio and io_uring): reads and writes (trim values are unused).
  PerDirection<std::uint32_t> cmdprio_percentage{};                // share of ios issued with cmdprio_class/cmdprio
  PerDirection<std::uint32_t> cmdprio_class{};                     // 0 = not given: realtime, as fio
  PerDirection<std::uint32_t> cmdprio_level{};                     // cmdprio 0-7
  PerDirection<std::vector<CmdprioSplitEntry>> cmdprio_bssplit{};  // excludes cmdprio_percentage
  std::optional<int> nice;                                         // nice value of the job's thread, -20..19
  std::int64_t uid = -1;  // the job's thread runs (and uses its files) as this user; -1 = sluice's own
  std::int64_t gid = -1;  // and this group
  // fio's cgroup options (run/job_cgroup.h): the job's thread joins this blkio cgroup (made when missing).
  std::string cgroup;               // "" = none (but cgroup_weight alone uses the job's name)
  std::uint32_t cgroup_weight = 0;  // 100-1000; 0 = not set
  bool cgroup_nodelete = false;     // a cgroup sluice made stays after the run
  // fio's td->ioprio: the priority value (class << 13 | level) prio/prioclass give the job's ios; a class
  // alone means level 0, a level alone best effort (fio's ioprio_value). 0 when neither was given.
  std::uint16_t default_ioprio() const noexcept {
    if (ioprio_class < 0 && ioprio < 0) return 0;
    const int io_class = ioprio_class > 0 ? ioprio_class : 2;
    return static_cast<std::uint16_t>((io_class << 13) | (ioprio > 0 ? ioprio : 0));
  }
  // Whether cmdprio_percentage or cmdprio_bssplit gives any read or write another priority.
  bool uses_cmdprio() const noexcept {
    for (int i = 0; i < 2; ++i) {
      if (cmdprio_percentage[i] != 0 || !cmdprio_bssplit[i].empty()) return true;
    }
    return false;
  }
};

}  // namespace sluice
