#pragma once
// Targets: resolving a job's files (filename list, or directory + fio's "jobname.jobnum.filenum" names),
// their sizes, opening them with the job's flags, laying them out before measuring, and cleanup.
// Only files sluice created are ever unlinked or truncated.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "targets/target_job.h"

namespace sluice {

struct TargetFile {
  std::string path;
  bool is_block_device = false;
  bool created_by_sluice = false;   // true when sluice created it in this run (may unlink it)
  std::uint64_t size = 0;           // file size (or device size) the job uses
  std::uint64_t region_start = 0;   // where the job's I/O region begins (offset option)
  std::uint64_t region_length = 0;  // bytes of the region
  int fd = -1;
  bool stand_in = false;  // not a file: the region a null, cpuio or exec job pretends to work on
};

// Progress of a layout: bytes written so far of total.
using LayoutProgress = std::function<void(const std::string& path, std::uint64_t done, std::uint64_t total)>;

struct WriteSafetyOptions {
  bool allow_destructive = false;  // --allow-destructive: writes to block devices with signatures allowed
};

// The paths of one job clone's files (filename, or names generated in directory), without resolving sizes.
// Throws UserError when directory= does not exist.
std::vector<std::string> target_paths(const TargetJob& job, int jobnum);

// Resolves the files of one job clone (jobnum) without touching them. Throws UserError on bad paths
// (non-existent directory, a directory where a file is needed, no size for a new file).
std::vector<TargetFile> resolve_targets(const TargetJob& job, int jobnum);

// Safety check before anything is written: for block devices, refuses (UserError naming the device and what
// was found) when it or a partition is mounted or it carries a filesystem / partition table / RAID / LVM
// signature, unless allow_destructive. Regular files pass. Call before prepare_targets for writing jobs.
void check_write_safety(const TargetFile& target, const WriteSafetyOptions& options);

// Creates missing files and lays them out with real random data (large sequential direct writes) so reads
// never measure holes; extends files that are too short (when sluice may). Reports progress.
void prepare_targets(std::vector<TargetFile>& targets, const TargetJob& job, const LayoutProgress& progress);

// For an engine that creates the files itself (filecreate): the targets missing now are marked created by
// sluice, so unlink=1 removes them at the end. They are not journaled: creating them is the measurement (a
// journal entry per file would add a write to each), and with fio's default unlink=0 they are kept anyway;
// a killed filecreate run leaves its files, as fio's does. Existing files are left as they are.
void claim_files_the_engine_creates(std::vector<TargetFile>& targets);

// For the engines that work on directories (dirstat, dirdelete): each missing target is made a directory
// (mode 0700, as fio's setup), marked created by sluice so unlink=1 removes it. Not journaled, as the files of
// claim_files_the_engine_creates. Throws IoError when one cannot be made.
void make_target_directories(std::vector<TargetFile>& targets);

// Opens every target with the job's flags (O_DIRECT for direct=1, O_SYNC/O_DSYNC for sync=...), filling fd.
void open_targets(std::vector<TargetFile>& targets, const TargetJob& job);
// Closes (fsync_on_close honoured by the caller before) and, when the job says unlink, removes the files
// sluice created. Never throws.
void close_targets(std::vector<TargetFile>& targets, bool unlink_created) noexcept;

// A failed operation on a target: errno and "fsync of PATH on close failed (fsync_on_close): reason".
struct TargetFailure {
  int error = 0;
  std::string message;
};
// unlink_each_loop: deletes a regular file sluice created and creates it again empty, with the same open flags
// under the same descriptor (t.fd), so engines that hold the descriptor go on with the new file. Block devices
// are left alone. A file sluice did not create is refused.
std::optional<TargetFailure> recreate_empty(const TargetFile& t);
// fsyncs every open target (fsync_on_close); the first failure, or nullopt when all succeeded.
std::optional<TargetFailure> fsync_targets(const std::vector<TargetFile>& targets);

}  // namespace sluice
