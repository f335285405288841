#pragma once
// A run of the same jobs on every MPI rank, in step: each rank lays out its files, all meet at a barrier,
// measure, meet again before cleanup; then every rank sends its full result to rank 0, which aggregates
// (mpi/aggregate.h). A rank that fails votes "failed" at the next meeting point, so the others stop and
// every rank still reaches the gather; rank 0 then reports the partial results naming the failed host. A
// watchdog ends all ranks (MPI_Abort) when the run exceeds its time limit (a hung rank).
//
// Files: a job without filename= gets per-rank names ($jobname.$jobnum.$filenum.rank<N>, or its
// filename_format followed by .rank<N>), so ranks sharing a directory never touch each other's files; a
// job that names its files (filename=) uses them as given on every rank (a shared file, or per-host devices).
#include <optional>
#include <string>
#include <vector>

#include "job/job_spec.h"
#include "mpi/aggregate.h"
#include "run/runner.h"

namespace sluice::mpi {

struct ClusterRun {
  // Rank 0 only (empty elsewhere): rank 0's run with each group's jobs replaced by the aggregate job.
  RunResult combined;
  std::vector<RankReport> ranks;
  std::vector<GroupAggregate> groups;
  std::vector<std::optional<GroupWearOut>> wearouts;  // per group: --mpi-wearout's figures, when it ran
  std::vector<std::string> failures;                  // "host (rank N): message", one per failed rank or job
  int exit_code = 0;                                  // this rank's; rank 0's covers every rank
};

// The jobs with per-rank file names for `rank` (see above); a write_iolog file gets .rank<N> too.
std::vector<JobSpec> per_rank_jobs(std::vector<JobSpec> jobs, int rank);

// The default time limit of an MPI run: the jobs' own time (startdelay + ramp_time + runtime, the longest job
// of each group, groups one after another) plus a grace for layout and exchange; 0 (no limit) when a job
// has no runtime (it ends when its size is done).
std::chrono::nanoseconds default_time_limit(const std::vector<JobSpec>& jobs);

// Collective: every rank calls it with the same jobs. Exceptions of the local run are caught and reported
// as this rank's failure.
ClusterRun run_cluster(const std::vector<JobSpec>& jobs, RunnerOptions options);

}  // namespace sluice::mpi
