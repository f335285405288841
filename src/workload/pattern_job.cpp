// PatternJob from a JobSpec: the parts IoPattern reads, and where its sprandom options were set.
#include "workload/pattern_job.h"

#include "job/job_spec.h"

namespace sluice {
namespace {

SourcePos position_of(const JobSpec& job, const char* option) {
  const auto pos = job.option_pos.find(option);
  return pos != job.option_pos.end() ? pos->second : job.where;
}

}  // namespace

PatternJob::PatternJob(const JobSpec& job)
    : workload(job.workload),
      time(job.time),
      zones(job.zones),
      target(job.target),
      name(job.name),
      spr_num_regions_pos(position_of(job, "spr_num_regions")),
      spr_cs_pos(position_of(job, "spr_cs")) {}

}  // namespace sluice
