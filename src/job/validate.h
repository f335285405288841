#pragma once
// Validation: pure checks of a parsed JobSpec, separate from parsing. Errors stop the run; warnings are
// printed to stderr and recorded (e.g. a sync engine asked for iodepth > 1, as fio silently ignores it).
#include <string>
#include <vector>

#include "common/error.h"
#include "job/job_spec.h"

namespace sluice {

// The checks of one job.
std::vector<Problem> validate(const JobSpec& job);

// The checks that relate jobs to each other (wait_for names an earlier job; offset_increment with a
// percentage offset), positioned at the option that is wrong.
std::vector<Problem> validate_across_jobs(const std::vector<JobSpec>& jobs);

// validate() of every job, then validate_across_jobs(): everything --parse-only can know.
std::vector<Problem> validate_all(const std::vector<JobSpec>& jobs);

// True when any problem is an error (not a warning).
bool has_error(const std::vector<Problem>& problems);

}  // namespace sluice
