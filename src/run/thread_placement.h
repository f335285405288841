#pragma once
// Per-thread placement of a job clone: CPU affinity (cpus_allowed / cpumask, cpus_allowed_policy,
// numa_cpu_nodes), NUMA memory policy (numa_mem_policy) and I/O priority (prio / prioclass). Applied by the
// worker on its own thread before the first io; the calls affect only the calling thread (sched_setaffinity,
// set_mempolicy, ioprio_set with pid 0 = the calling thread).
#include <string>

#include "job/placement_options.h"

namespace sluice {

// Applies the job's placement to the calling thread. Returns "" on success, else a message naming the
// option and the system's reason (the job then fails with it). `jobnum` picks the CPU under policy=split.
std::string apply_thread_placement(const PlacementOptions& placement, int jobnum);

// numa_cpu_nodes: the calling thread runs on those nodes' CPUs (libnuma's numa_run_on_node_mask, as fio).
// apply_thread_placement calls it after cpus_allowed. Returns "" or the failure, as apply_thread_placement.
std::string apply_numa_cpu_nodes(const PlacementOptions& placement);

// numa_mem_policy: the calling thread's memory policy (set_mempolicy), and `buffers` (page-aligned, allocated
// before) moved to follow it (mbind with MPOL_MF_MOVE). Returns "" or the failure naming the option.
std::string apply_numa_mem_policy(const PlacementOptions& placement, void* buffers, std::size_t bytes);

// The CPUs clone `jobnum` may use under the job's policy (all of cpus_allowed, or one of them for split).
std::vector<std::uint32_t> cpus_for_clone(const PlacementOptions& placement, int jobnum);

}  // namespace sluice
