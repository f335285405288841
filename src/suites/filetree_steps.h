#pragma once
// The file-system steps of `sluice filetree` on a planned tree: create, read, copy (cp -a) and delete, each
// spread over threads (file i goes to thread i % threads), each ending with syncfs so its time includes
// writing its data and metadata to the device. The tar steps are in filetree_tar.h.
//
// Stopping: every step polls stop_requested() (run/stop_signal.h) before each file and each chunk and
// returns what it did so far with completed = false. Errors: IoError naming the path and the call.
#include <cstdint>
#include <string>
#include <vector>

#include "suites/filetree_ops.h"
#include "suites/filetree_plan.h"

namespace sluice {

struct StepResult {
  std::string name;         // create, read, copy, tar, read-tar, delete
  std::uint64_t bytes = 0;  // file data moved (tar, read-tar: the archive's bytes)
  std::uint64_t files = 0;  // regular files handled
  double seconds = 0;
  bool completed = true;  // false: stopped by a signal part-way
  OpRecorder latency;
};

inline constexpr std::size_t kFiletreeChunk = 1 << 20;  // bytes per read/write call

// Creates `root` (which must not exist), the plan's directories and files, filled with random data that
// differs in every 4 KiB block (no dedup or compression flatters the device).
StepResult create_tree(const FiletreePlan& plan, const std::string& root, std::uint32_t threads, std::uint64_t seed);

// Reads every file of the tree to its end.
StepResult read_tree(const FiletreePlan& plan, const std::string& root, std::uint32_t threads);

// Copies the tree at `from` to `to` (which must not exist) as `cp -a` does for what sluice creates: data,
// permission bits, access and modification times of files and directories, and the owner when root. Data
// goes through read and write (not copy_file_range or reflinks, which would hide the data transfer).
StepResult copy_tree(const FiletreePlan& plan, const std::string& from, const std::string& to, std::uint32_t threads);

// Removes the plan's files and directories under each root, then the roots, then every path in `extra_files`.
// Paths that do not exist are skipped. Stopped part-way, it leaves the rest (the caller removes its directory).
StepResult delete_trees(const FiletreePlan& plan, const std::vector<std::string>& roots,
                        const std::vector<std::string>& extra_files, std::uint32_t threads);

// syncfs on the file system holding `path`, timed as FileOp::kSync into `recorder`.
void sync_file_system(const std::string& path, OpRecorder& recorder);

}  // namespace sluice
