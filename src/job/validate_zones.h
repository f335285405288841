#pragma once
// Checks of zonemode=strided and zonemode=zbd (part of validate()): the zone options against each other and
// against the workload's block sizes and directions.
#include <cstdint>

#include "job/job_problems.h"
#include "job/verify_options.h"
#include "job/workload_options.h"
#include "job/zone_options.h"

namespace sluice {

// nrfiles: the target part's file count (strided zones are ignored with more than one file); verify: the job's
// verify= kind (zbd with verify needs block sizes that divide the zone).
void check_zones(const ZoneOptions& zones, const WorkloadOptions& workload, std::uint32_t nrfiles, VerifyKind verify,
                 detail::JobProblems& check);

}  // namespace sluice
