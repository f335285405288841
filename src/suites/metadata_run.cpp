#include "suites/metadata_run.h"

#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <memory>
#include <thread>

#include <fmt/format.h>

#include "common/created_files.h"
#include "common/error.h"
#include "run/stop_signal.h"

namespace sluice {
namespace {

std::string now_text() {
  const std::time_t t = std::time(nullptr);
  std::tm local{};
  ::localtime_r(&t, &local);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%m/%d/%Y %H:%M:%S", &local);
  return buffer;
}

MetadataFsUsage fs_usage(const std::string& directory) {
  struct statvfs fs {};
  if (::statvfs(directory.c_str(), &fs) != 0) {
    throw UserError(fmt::format("-d/--dir '{}' is not a directory sluice can use: {}; give an existing directory",
                                directory, std::strerror(errno)));
  }
  if (!std::filesystem::is_directory(directory)) {
    throw UserError(fmt::format("-d/--dir '{}' is not a directory; give an existing directory", directory));
  }
  if (::access(directory.c_str(), W_OK | X_OK) != 0) {
    throw UserError(fmt::format("-d/--dir '{}': cannot create files there ({}); give a directory you can write to",
                                directory, std::strerror(errno)));
  }
  MetadataFsUsage u;
  u.total_bytes = static_cast<std::uint64_t>(fs.f_blocks) * fs.f_frsize;
  u.free_bytes = static_cast<std::uint64_t>(fs.f_bfree) * fs.f_frsize;
  u.total_inodes = fs.f_files;
  u.free_inodes = fs.f_ffree;
  return u;
}

// Refuses a run that would use more inodes than DIR's file system has free (when it counts them).
void check_inodes(const MetadataResult& r) {
  if (r.fs.total_inodes == 0) return;  // btrfs and others report no inode limit
  // Directory and file items never exist at the same time: the directories are removed before the files.
  const std::uint64_t trees = r.options.unique_dir ? r.plan.workers : 1;
  const std::uint64_t needed = r.plan.items * r.plan.workers + trees * r.plan.tree_dirs + 2;
  if (needed > r.fs.free_inodes) {
    throw UserError(fmt::format("{} has {} free inodes, the run needs {}; use a smaller -n/--items or tree",
                                r.path, r.fs.free_inodes, needed));
  }
}

// Creates DIR/sluice-metadata.<pid>[.N], journaled so that `sluice restore` finds it after a kill.
std::string make_work_dir(const std::string& directory) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string path = fmt::format("{}/sluice-metadata.{}", directory, static_cast<long>(::getpid()));
    if (attempt > 0) path += fmt::format(".{}", attempt);
    journal_creating(path);
    if (::mkdir(path.c_str(), 0755) == 0) {
      journal_created_tree(path);
      return path;
    }
    const int error = errno;
    journal_removed(path);
    if (error != EEXIST) {
      throw UserError(fmt::format("-d/--dir: cannot create a directory in {}: {}; give a directory you can write to",
                                  directory, std::strerror(error)));
    }
  }
  throw UserError(fmt::format("-d/--dir: cannot find a free name for sluice's directory in {}", directory));
}

// Removes the work directory on every way out of run_metadata.
class WorkDirGuard {
 public:
  explicit WorkDirGuard(std::string path) : path_(std::move(path)) {}
  ~WorkDirGuard() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
    if (!ec) journal_removed(path_);
  }
  WorkDirGuard(const WorkDirGuard&) = delete;
  WorkDirGuard& operator=(const WorkDirGuard&) = delete;

 private:
  std::string path_;
};

}  // namespace

MetadataResult run_metadata(const MetadataOptions& options, std::vector<std::string> command_line) {
  MetadataResult r;
  r.options = options;
  r.plan = make_metadata_plan(options);
  r.command_line = std::move(command_line);
  r.fs = fs_usage(options.directory);
  std::error_code ec;
  r.path = std::filesystem::absolute(options.directory, ec).lexically_normal().string();
  if (ec) r.path = options.directory;
  if (r.path.size() > 1 && r.path.back() == '/') r.path.pop_back();
  check_inodes(r);
  r.notes = r.plan.notes;
  r.started = now_text();
  r.work_dir = make_work_dir(r.path);
  const WorkDirGuard guard(r.work_dir);

  const std::uint32_t workers = r.plan.workers;
  ThreadTeam team(workers);
  std::vector<MetadataWorkerOutput> outputs(workers);
  {
    std::vector<std::jthread> threads;
    for (std::uint32_t rank = 1; rank < workers; ++rank) {
      threads.emplace_back([&, rank] {
        const auto comm = team.member(rank);
        run_metadata_worker(*comm, r.options, r.plan, r.work_dir, outputs[rank]);
      });
    }
    const auto comm = team.member(0);
    run_metadata_worker(*comm, r.options, r.plan, r.work_dir, outputs[0]);
  }
  r.finished = now_text();
  r.iterations = std::move(outputs[0].iterations);
  for (const MetadataWorkerOutput& out : outputs) {
    for (std::size_t p = 0; p < kMetadataPhaseCount; ++p) r.latency[p].merge(out.latency[p]);
  }
  for (const MetadataWorkerOutput& out : outputs) {
    if (!out.error.empty()) throw IoError(fmt::format("metadata: {}", out.error), 0);
  }
  r.interrupted = outputs[0].stopped || stop_requested();
  return r;
}

}  // namespace sluice
