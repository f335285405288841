#include "run/plan.h"

namespace sluice {

std::vector<GroupPlan> make_plan(const std::vector<JobSpec>& jobs, std::uint64_t time_seed) {
  std::vector<GroupPlan> groups;
  int lognum = 0;
  for (const JobSpec& job : jobs) {
    const bool starts_group = groups.empty() || job.stonewall || job.new_group;
    if (starts_group) {
      GroupPlan group;
      group.groupid = static_cast<int>(groups.size());
      groups.push_back(std::move(group));
    }
    GroupPlan& group = groups.back();
    group.group_reporting = group.group_reporting || job.group_reporting;
    for (std::uint32_t clone = 0; clone < job.numjobs; ++clone) {
      JobInstance instance;
      instance.spec = job;
      instance.jobnum = static_cast<int>(clone);
      instance.groupid = group.groupid;
      instance.lognum = lognum++;
      // Clones must not replay each other's offsets; randrepeat=0 makes runs differ from each other too.
      instance.seed = job.randseed + clone * 0x9e3779b97f4a7c15ull + (job.randrepeat ? 0 : time_seed);
      group.jobs.push_back(std::move(instance));
    }
  }
  return groups;
}

}  // namespace sluice
