#pragma once
// One worker (one of mdtest's ranks) of `sluice metadata`: every iteration's phases in mdtest 4.0.0's order
// (tree creation; directory create, stat, remove; file create, stat, read, remove; tree removal), each
// bracketed by barriers and reduced over all workers through WorkerComm, so the phase time is the time
// between the barriers and the rate counts the items of all workers.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "suites/filetree_ops.h"
#include "suites/metadata_comm.h"
#include "suites/metadata_plan.h"

namespace sluice {

// One phase of one iteration, over all workers: items done and the longest worker's time between barriers.
struct MetadataSample {
  std::uint64_t items = 0;
  double seconds = 0;
};

struct MetadataIteration {
  std::array<std::optional<MetadataSample>, kMetadataPhaseCount> phases;  // reported phases that completed
  bool complete = false;
};

struct MetadataWorkerOutput {
  std::vector<MetadataIteration> iterations;           // the same on every worker
  std::array<OpLatency, kMetadataPhaseCount> latency;  // this worker's per-item times, all iterations
  std::string error;                                   // the first failed call of this worker
  bool stopped = false;                                // some worker saw a stop request or an error
};

// Runs all iterations under `work_dir` (which exists). Never throws: a failing call ends the run on every
// worker at the next phase boundary, with `error` set on the worker that failed.
void run_metadata_worker(WorkerComm& comm, const MetadataOptions& options, const MetadataPlan& plan,
                         const std::string& work_dir, MetadataWorkerOutput& out);

}  // namespace sluice
