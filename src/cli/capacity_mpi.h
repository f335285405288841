#pragma once
// sluice capacity under MPI (docs/multi-host.md, "Capacity"): rank 0 runs the search and leads; every other
// rank follows. For each segment of a point rank 0 broadcasts what to run (iodepth, numjobs, measured time),
// then all ranks run it in step (mpi::run_cluster: barriers around the measurement, per-rank file names, a
// watchdog), so the search sees the aggregate of every rank: concurrency = iodepth x numjobs x hosts, IOPS
// of all ranks over the common window, latency percentiles of every io. A last broadcast ends the followers.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "method/capacity.h"
#include "mpi/aggregate.h"
#include "mpi/host_shares.h"

namespace sluice {

class CapacityLeader {
 public:
  // Rank 0: sets request.hosts and request.run_segment (which refers to this leader; it must outlive them).
  explicit CapacityLeader(CapacityRequest& request);
  ~CapacityLeader();  // tells the followers to stop
  CapacityLeader(const CapacityLeader&) = delete;
  CapacityLeader& operator=(const CapacityLeader&) = delete;

  // Forgets the points of an earlier repetition.
  void start_search();
  // The per-host figures of the answer (or the last point) and the hosts' environments: text after the
  // capacity table, and "sluice.mpi" / "sluice.hosts" in the final run's document.
  std::string render_text(const CapacityResult& result) const;
  void add_to_document(CapacityResult& result) const;

 private:
  RunResult run_segment(const CapacitySegment& segment, const std::vector<JobSpec>& jobs, const RunnerOptions& options);

  std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<mpi::HostShare>> shares_;  // per (iodepth, numjobs)
  std::vector<mpi::RankReport> ranks_;  // each rank's host and environment (first segment), without results
};

// Every rank but 0: runs the segments rank 0 sends until it says stop. Returns this rank's exit code.
int follow_capacity(const CapacityRequest& request);

}  // namespace sluice
