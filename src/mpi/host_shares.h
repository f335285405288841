#pragma once
// Each host's share of a measurement made of several MPI runs in step (the segments of a capacity point):
// per rank, its jobs' results added up over the runs (ios, histograms, its own measured time), so its
// IOPS and latency are over everything it did. Per-host rates are shown side by side, never added.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "mpi/cluster_run.h"

namespace sluice::mpi {

struct HostShare {
  int rank = 0;
  std::string host;
  JobResult job;  // the rank's jobs merged over the runs; runtime_ns = the sum of its own runtimes
};

// A latency in ns for the cluster tables: "850ns", "12.3us", "4.56ms", "1.20s".
std::string format_ns(double ns);

// Adds the first group of `run` (rank 0's view after run_cluster) to `shares`, one entry per rank.
void add_host_shares(std::vector<HostShare>& shares, const ClusterRun& run);

// A table: host, rank, IOPS, bandwidth, mean and p99 latency; each line indented by two spaces.
std::string render_host_shares(const std::vector<HostShare>& shares);
// [{"rank", "hostname", "ios", "runtime_s", "iops", "bw_bytes", "lat_mean_ns", "lat_p99_ns"}, ...]
nlohmann::ordered_json host_shares_json(const std::vector<HostShare>& shares);

}  // namespace sluice::mpi
