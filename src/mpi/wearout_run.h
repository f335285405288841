#pragma once
// Stonewall wear-out (IOR's stoneWallingWearOut; --mpi-wearout). A time-based run ends at its deadline on
// every rank, but a slower rank has then done less: the figures of the window mix a loaded system with an
// emptier one. With wear-out, each job clone on each rank goes on, after the deadline, until it has done as
// many ios as the same clone did on the busiest rank, so every rank ends having done the same work.
#include <cstdint>
#include <string>
#include <vector>

#include "job/job_spec.h"
#include "mpi/aggregate.h"
#include "run/runner.h"

namespace sluice::mpi {

// Collective: every rank calls it after the same measured run, with that run's jobs (per-rank names) and
// result. Compares each clone's ios with the busiest rank's (MPI_MAX) and runs the difference as a
// size-bound run of that clone on its own files (no ramp, no barriers: a rank with nothing to do waits only
// at the next collective). Returns one RankWearOut per group of `measured`. Throws what run_jobs throws.
std::vector<RankWearOut> run_wearout(const std::vector<JobSpec>& jobs, const RunResult& measured,
                                     RunnerOptions options);

// The catch-up job of one clone: `clone` (its plan entry's spec and number) with `ios` to do.
JobSpec wearout_job(const JobSpec& clone, int jobnum, std::uint64_t ios);

}  // namespace sluice::mpi
