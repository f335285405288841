#pragma once
// Reports of an MPI run (rank 0): a per-host table and the aggregate, then the aggregate job as fio's
// normal report; and fio's many-clients JSON (a "client_stats" array: one entry per host with "hostname"
// and "port", then "All clients"), with sluice.mpi (windows, skew, failures) and sluice.hosts (each host's
// environment, clock offset and what differs from rank 0's).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "mpi/cluster_run.h"

namespace sluice::mpi {

// Warnings about the run's timing: start skew above max(100 ms, 1% of the window), clock uncertainty above
// 1% of the series interval. Empty when there is nothing to say.
std::vector<std::string> timing_warnings(const ClusterRun& run);

std::string render_cluster_text(const ClusterRun& run);

// "Hosts' environments ...": what differs in each rank's environment from rank 0's (the host name aside).
std::string host_differences_text(const std::vector<RankReport>& ranks);
// sluice.hosts: each rank's host, clock offset, failure, environment and its differences from rank 0's.
nlohmann::ordered_json hosts_json(const std::vector<RankReport>& ranks);
std::string render_cluster_json(const ClusterRun& run, bool json_plus);

}  // namespace sluice::mpi
