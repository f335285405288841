#pragma once
// `sluice metadata`: mdtest's metadata workload (hpc/ior 4.0.0 semantics) with threads as its ranks. It
// works in a new directory DIR/sluice-metadata.<pid> (journaled in common/created_files.h) and removes it,
// and only it, on every way out: normal end, a failed call, SIGINT/SIGTERM.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "suites/metadata_comm.h"
#include "suites/metadata_worker.h"

namespace sluice {

// DIR's file system, for mdtest's "FS:" header line.
struct MetadataFsUsage {
  std::uint64_t total_bytes = 0;
  std::uint64_t free_bytes = 0;
  std::uint64_t total_inodes = 0;
  std::uint64_t free_inodes = 0;
};

struct MetadataResult {
  MetadataOptions options;
  MetadataPlan plan;
  std::vector<std::string> command_line;  // the arguments after "sluice metadata", for the header
  std::string path;                       // DIR, absolute
  std::string work_dir;                   // the directory sluice created (removed again)
  MetadataFsUsage fs;
  std::string started;             // local time, "MM/DD/YYYY HH:MM:SS" as mdtest prints it
  std::uint64_t timestamp_ms = 0;  // wall clock at the start (the document's "timestamp_ms")
  std::string finished;
  std::vector<MetadataIteration> iterations;           // the last one may be incomplete
  std::array<OpLatency, kMetadataPhaseCount> latency;  // per item, all workers and iterations
  bool interrupted = false;
  std::vector<std::string> notes;
  std::vector<std::string> hosts;  // the host of each process (one without MPI), in rank order
  bool failed = false;             // processes other than 0: a call failed here (process 0 reports it)
  std::uint32_t threads_per_process = 1;
};

// Checks the options (make_metadata_plan) and DIR before creating anything, runs every iteration and
// cleans up. Throws UserError on bad input or an unusable DIR, IoError (after cleaning up) when a call
// fails during the run.
//
// With `processes` (MPI ranks; every process calls it with the same options) the workers are options.threads
// on each process: process 0 creates the work directory and tells the others its name (on a shared file
// system it is the same directory; elsewhere each process creates it too), and after the run gathers every
// process's latencies and errors. Only process 0's result is complete (the others' carry their own part), and
// only process 0 throws for a failed call (naming the host and rank); the others set `failed`.
MetadataResult run_metadata(const MetadataOptions& options, std::vector<std::string> command_line,
                            ProcessGroup* processes = nullptr);

}  // namespace sluice
