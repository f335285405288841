#include "suites/filetree_run.h"

#include <fmt/format.h>
#include <stdlib.h>
#include <sys/statvfs.h>

#include <filesystem>

#include "common/clock.h"
#include "common/created_files.h"
#include "common/error.h"
#include "common/stop_signal.h"
#include "job/units.h"
#include "observe/environment.h"
#include "suites/filetree_tar.h"

namespace sluice {
namespace {

// Removes the work directory on every way out of run_filetree.
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

void check_space(const FiletreeOptions& options, const FiletreePlan& plan) {
  struct statvfs fs {};
  if (::statvfs(options.directory.c_str(), &fs) != 0) {
    throw UserError(fmt::format("filetree: DIR '{}' is not a directory sluice can use: {}; give an existing directory",
                                options.directory, std::strerror(errno)));
  }
  if (!std::filesystem::is_directory(options.directory)) {
    throw UserError(
        fmt::format("filetree: DIR '{}' is not a directory; give an existing directory", options.directory));
  }
  const std::uint64_t available = static_cast<std::uint64_t>(fs.f_bavail) * fs.f_frsize;
  const std::uint64_t needed = filetree_space_needed(plan, fs.f_frsize ? fs.f_frsize : 4096);
  if (needed > available) {
    throw UserError(
        fmt::format("filetree: {} has {} free, the run needs about {} (the tree, its copy and the archive); "
                    "use a smaller --size (at most about {})",
                    options.directory, format_bytes(static_cast<double>(available)),
                    format_bytes(static_cast<double>(needed)), format_bytes(static_cast<double>(available) / 3.2)));
  }
}

std::string make_work_dir(const std::string& directory) {
  std::string path = create_journaled_directory(directory, "sluice-filetree.", true);
  if (path.empty()) {
    throw UserError(fmt::format("filetree: cannot create a directory in {}: {}; give a directory you can write to",
                                directory, std::strerror(errno)));
  }
  return path;
}

}  // namespace

std::uint64_t filetree_space_needed(const FiletreePlan& plan, std::uint64_t block_size) {
  const std::uint64_t entries = plan.files.size() + plan.dirs + 1;
  const std::uint64_t archive = plan.total_bytes + entries * 1024 + 10240;
  return 2 * (plan.total_bytes + entries * block_size) + archive;
}

FiletreeResult run_filetree(const FiletreeOptions& options) {
  FiletreeResult result;
  result.timestamp_ms = wall_clock_ms();
  result.options = options;
  result.plan = make_filetree_plan(options);
  check_space(options, result.plan);
  result.drop_caches = options.drop_caches.value_or(may_drop_page_cache());
  if (!options.drop_caches && !result.drop_caches) {
    result.notes.push_back("page cache not dropped between steps (not root): the read steps may be served from memory");
  }
  result.environment = capture_environment({options.directory});
  result.work_dir = make_work_dir(options.directory);
  const WorkDirGuard guard(result.work_dir);
  const std::string tree = result.work_dir + "/tree";
  const std::string copy = result.work_dir + "/copy";
  const std::string archive = result.work_dir + "/tree.tar";
  const FiletreePlan& plan = result.plan;
  const std::uint32_t threads = options.threads;
  const auto before_step = [&] {
    if (stop_requested()) return false;
    if (result.drop_caches) {
      result.cache_drops.push_back(drop_page_cache());
      const CacheDrop& drop = result.cache_drops.back();
      if (!drop.done && result.cache_drops.size() == 1) {
        result.notes.push_back("page cache could not be dropped: " + drop.reason);
      }
    }
    return !stop_requested();
  };
  const auto record = [&](StepResult step) {
    result.steps.push_back(std::move(step));
    return result.steps.back().completed;
  };
  const bool finished = record(create_tree(plan, tree, threads, options.seed)) && before_step() &&
                        record(read_tree(plan, tree, threads)) && before_step() &&
                        record(copy_tree(plan, tree, copy, threads)) && before_step() &&
                        record(write_tar(plan, tree, archive)) && before_step() && record(read_tar(archive));
  if (finished && !options.keep_archive.empty()) {
    std::error_code ec;
    std::filesystem::rename(archive, options.keep_archive, ec);
    if (ec) result.notes.push_back("could not keep the archive at " + options.keep_archive + ": " + ec.message());
  }
  const bool deleted = finished && before_step() && record(delete_trees(plan, {tree, copy}, {archive}, threads));
  result.interrupted = !deleted;
  return result;
}

}  // namespace sluice
