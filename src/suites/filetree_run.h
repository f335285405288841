#pragma once
// `sluice filetree`: the lab notebook's shell procedure as one measured run. In a new directory
// DIR/sluice-filetree.XXXXXX it creates a tree, reads it, copies it (cp -a), archives it (tar), reads the
// archive and deletes everything, dropping the page cache before every step after the first when asked.
// Whatever happens (error, SIGINT), the new directory and all in it are removed before returning, and
// nothing outside it is touched: sluice never removes a path it did not create.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "observe/page_cache.h"
#include "suites/filetree_options.h"
#include "suites/filetree_plan.h"
#include "suites/filetree_steps.h"

namespace sluice {

struct FiletreeResult {
  FiletreeOptions options;
  FiletreePlan plan;
  std::uint64_t timestamp_ms = 0;      // wall clock at the start
  std::string work_dir;                // the directory sluice created (removed again)
  bool drop_caches = false;            // asked for (or the default as root)
  std::vector<CacheDrop> cache_drops;  // one per step after the first that ran, when drop_caches
  std::vector<StepResult> steps;       // in order; the last one may be incomplete when interrupted
  bool interrupted = false;
  std::vector<std::string> notes;  // for the report: what could not be done and why
  nlohmann::json environment;      // observe/environment.h snapshot of the machine and DIR's file system
};

// Runs the whole procedure. Throws UserError before creating anything when DIR is missing or lacks the
// space for the tree, its copy and the archive; IoError (after cleaning up) when a step fails.
FiletreeResult run_filetree(const FiletreeOptions& options);

// The space the run needs under DIR: the tree twice plus the archive (512-byte headers, 10 KiB blocks)
// plus a block per file of slack for file-system rounding.
std::uint64_t filetree_space_needed(const FiletreePlan& plan, std::uint64_t block_size);

}  // namespace sluice
