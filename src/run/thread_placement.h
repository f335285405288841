#pragma once
// Per-thread placement of a job clone: CPU affinity (cpus_allowed / cpumask, cpus_allowed_policy) and I/O
// priority (prio / prioclass). Applied by the worker on its own thread before the first io; the calls
// affect only the calling thread (sched_setaffinity / ioprio_set with pid 0 = the calling thread).
#include <string>

#include "job/job_spec.h"

namespace sluice {

// Applies the job's placement to the calling thread. Returns "" on success, else a message naming the
// option and the system's reason (the job then fails with it). `jobnum` picks the CPU under policy=split.
std::string apply_thread_placement(const JobSpec& job, int jobnum);

// The CPUs clone `jobnum` may use under the job's policy (all of cpus_allowed, or one of them for split).
std::vector<std::uint32_t> cpus_for_clone(const JobSpec& job, int jobnum);

}  // namespace sluice
