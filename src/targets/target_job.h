#pragma once
// TargetJob: what targets/ reads of a job to name, size, lay out and open its files: the target part, the
// workload (block sizes for alignment and layout, randseed, whether it writes), durability (sync=: the open
// flags), what its engine does with files (from the engines' traits), and the job's name for messages. A
// view: it refers to the job, which must outlive it.
#include <cstdint>
#include <string>

#include "job/durability_options.h"
#include "job/target_options.h"
#include "job/workload_options.h"

namespace sluice {

struct JobSpec;  // job/job_spec.h

struct TargetJob {
  // Not explicit, as std::string_view from a string: a job's files are found from the job (resolve_targets(job,
  // ...)).
  TargetJob(const JobSpec& job);

  const TargetOptions& target;
  const WorkloadOptions& workload;
  const DurabilityOptions& durability;
  const std::string& name;
  bool engine_dirs = false;       // the engine's targets are directories (engine_traits: dirs)
  bool engine_moves_data = true;  // false: it changes the file whatever the io's direction (falloc)

  std::uint64_t min_block_size() const noexcept { return workload.min_block_size(); }
  bool does_writes() const noexcept { return workload.does_writes(); }
  bool does_trims() const noexcept { return workload.does_trims(); }
};

}  // namespace sluice
