#pragma once
// Checks of the sprandom options (part of validate()); see options_sprandom.cpp for their meaning. The checks
// that need the file's size (regions of at least one block, spr_cs within a region) come where the workload is
// planned (workload/io_pattern.cpp).
#include <vector>

#include "common/error.h"
#include "job/job_spec.h"

namespace sluice {

// Appends errors and warnings about sprandom, spr_num_regions, spr_op and spr_cs to `out`.
void validate_sprandom(const JobSpec& job, std::vector<Problem>& out);

}  // namespace sluice
