#pragma once
// PatternJob: what IoPattern reads of a job: its workload (rw, block sizes, distributions, sprandom), the
// size-based end (time: loops, io_size, number_ios, time_based), zonemode=strided (zones), the file service
// (target), and for its messages the job's name and where its sprandom options were set. A view: it refers to
// the job, which must outlive it (it is made where a pattern is made, and the pattern keeps none of it).
#include <string>

#include "common/error.h"
#include "job/target_options.h"
#include "job/time_options.h"
#include "job/workload_options.h"
#include "job/zone_options.h"

namespace sluice {

struct JobSpec;  // job/job_spec.h

struct PatternJob {
  // Not explicit, as std::string_view from a string: a pattern is made from a job (IoPattern(job, ...)).
  PatternJob(const JobSpec& job);

  const WorkloadOptions& workload;
  const TimeOptions& time;
  const ZoneOptions& zones;
  const TargetOptions& target;
  const std::string& name;
  SourcePos spr_num_regions_pos;  // where spr_num_regions was set (the job's section when it was not)
  SourcePos spr_cs_pos;           // where spr_cs was set (likewise)

  bool does_reads() const noexcept { return workload.does_reads(); }
  bool does_writes() const noexcept { return workload.does_writes(); }
  bool does_trims() const noexcept { return workload.does_trims(); }
  bool is_mixed() const noexcept { return workload.is_mixed(); }
  bool is_random() const noexcept { return workload.is_random(); }
};

}  // namespace sluice
