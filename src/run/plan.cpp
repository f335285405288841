#include "run/plan.h"

#include <fmt/format.h>

#include "common/error.h"
#include "job/validate.h"
#include "run/job_control.h"

namespace sluice {
namespace {

// cpuio and exec pace their ios with a think time, as fio's engines set it: cpuio thinks
// (100 - cpuload) / cpuload times each burn's own time (fio measures its qsort cycle the same way), exec
// looks at its program every 50 ms. Both run
// for their runtime: their ios are not I/O, so there is no size to finish.
void apply_engine_pacing(JobSpec& job) {
  if (engine_traits(job.engine.ioengine).does_io) return;
  job.time.time_based = true;
  job.pacing.thinktime_blocks = 1;
  job.pacing.thinktime_spin = std::chrono::nanoseconds{0};
  if (job.engine.ioengine == EngineKind::kCpuio && job.engine.cpuio.cpuload > 0) {
    job.pacing.thinktime = std::chrono::nanoseconds{0};
    job.pacing.think_per_busy = static_cast<double>(100 - job.engine.cpuio.cpuload) / job.engine.cpuio.cpuload;
  } else {
    job.pacing.thinktime = std::chrono::milliseconds(50);
  }
}

}  // namespace

std::vector<GroupPlan> make_plan(const std::vector<JobSpec>& jobs, std::uint64_t time_seed) {
  // Callers validate first (validate_all); this keeps a library caller from running an impossible plan.
  for (const Problem& p : validate_across_jobs(jobs)) {
    if (p.severity == Problem::Severity::kError) throw UserError(p.where.describe() + ": " + p.message);
  }
  std::vector<GroupPlan> groups;
  int lognum = 0;
  for (const JobSpec& job : jobs) {
    const bool starts_group = groups.empty() || job.control.stonewall || job.control.new_group;
    if (starts_group) {
      GroupPlan group;
      group.groupid = static_cast<int>(groups.size());
      groups.push_back(std::move(group));
    }
    GroupPlan& group = groups.back();
    group.group_reporting = group.group_reporting || job.report.group_reporting;
    for (std::uint32_t clone = 0; clone < job.control.numjobs; ++clone) {
      JobInstance instance;
      instance.spec = job;
      // A background job repeats its workload until the foreground jobs end (time_based without a limit
      // when it has no runtime of its own); the runner stops it.
      if (job.control.role == JobRole::kBackground) instance.spec.time.time_based = true;
      apply_engine_pacing(instance.spec);
      instance.jobnum = static_cast<int>(clone);
      instance.groupid = group.groupid;
      instance.lognum = lognum++;
      apply_clone_options(instance);  // filename_format, offset_increment
      // No two clones of the run (of one job or of two) may replay each other's offsets or write each
      // other's data: the seed moves with the clone's position in the run, as fio's with its thread number.
      // randrepeat=0 makes runs differ from each other too.
      instance.seed = job.workload.randseed + static_cast<std::uint64_t>(instance.lognum) * kCloneSeedStep +
                      (job.workload.randrepeat ? 0 : time_seed);
      group.jobs.push_back(std::move(instance));
    }
  }
  for (GroupPlan& group : groups) {
    for (JobInstance& instance : group.jobs) instance.run_clones = lognum;
  }
  for (const GroupPlan& group : groups) {
    if (group.foreground_jobs() == 0) {
      const JobSpec& first = group.jobs.front().spec;
      throw UserError(
          fmt::format("{}job {}: group {} has only background jobs (role=background); a background job "
                      "runs beside foreground jobs of its group",
                      first.where.file.empty() ? "" : first.where.describe() + ": ", first.name, group.groupid));
    }
  }
  return groups;
}

std::size_t GroupPlan::foreground_jobs() const noexcept {
  std::size_t n = 0;
  for (const JobInstance& job : jobs) n += job.spec.control.role == JobRole::kForeground ? 1 : 0;
  return n;
}

}  // namespace sluice
