#pragma once
// Validation: pure checks of a parsed JobSpec, separate from parsing. Errors stop the run; warnings are
// printed to stderr and recorded (e.g. a sync engine asked for iodepth > 1, as fio silently ignores it).
#include <vector>

#include "common/error.h"
#include "job/job_spec.h"

namespace sluice {

std::vector<Problem> validate(const JobSpec& job);

}  // namespace sluice
