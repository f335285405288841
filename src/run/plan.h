#pragma once
// Planning: turns the parsed jobs into groups of job clones (numjobs expanded), as fio does.
// A job with stonewall or new_group starts a new group; groups run one after another, the jobs of a group
// side by side. Pure: no I/O. A role=background job is made time_based (it runs until the runner stops it when
// the group's foreground jobs end); a group with no foreground job is refused (UserError).
#include <cstdint>
#include <vector>

#include "job/job_spec.h"

namespace sluice {

// The step between the seeds of consecutive clones of a run (clone L: randseed + L * kCloneSeedStep).
inline constexpr std::uint64_t kCloneSeedStep = 0x9e3779b97f4a7c15ull;

struct JobInstance {
  JobSpec spec;
  int jobnum = 0;  // clone index, 0 .. numjobs-1
  int groupid = 0;
  int lognum = 0;          // position among all clones of the run (fio numbers log files by it, from 1)
  int run_clones = 1;      // clones in the whole run (dedupe_global spreads its working set over them)
  std::uint64_t seed = 0;  // per clone: randseed + lognum (randrepeat=0 mixes in the time)
};

struct GroupPlan {
  int groupid = 0;
  bool group_reporting = false;  // any job of the group asked for it
  std::vector<JobInstance> jobs;
  std::size_t foreground_jobs() const noexcept;  // clones with role=foreground
};

std::vector<GroupPlan> make_plan(const std::vector<JobSpec>& jobs, std::uint64_t time_seed = 0);

}  // namespace sluice
