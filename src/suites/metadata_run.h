#pragma once
// `sluice metadata`: mdtest's metadata workload (hpc/ior 4.0.0 semantics) with threads as its ranks. It
// works in a new directory DIR/sluice-metadata.<pid> (journaled in common/created_files.h) and removes it,
// and only it, on every way out: normal end, a failed call, SIGINT/SIGTERM.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

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
  std::string started;   // local time, "MM/DD/YYYY HH:MM:SS" as mdtest prints it
  std::string finished;
  std::vector<MetadataIteration> iterations;                // the last one may be incomplete
  std::array<OpLatency, kMetadataPhaseCount> latency;       // per item, all workers and iterations
  bool interrupted = false;
  std::vector<std::string> notes;
};

// Checks the options (make_metadata_plan) and DIR before creating anything, runs every iteration and
// cleans up. Throws UserError on bad input or an unusable DIR, IoError (after cleaning up) when a call
// fails during the run.
MetadataResult run_metadata(const MetadataOptions& options, std::vector<std::string> command_line);

}  // namespace sluice
