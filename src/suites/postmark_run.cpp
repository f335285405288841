#include "suites/postmark_run.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>

#include "common/clock.h"
#include "common/created_files.h"
#include "common/error.h"
#include "observe/environment.h"

namespace sluice {
namespace {

std::string human_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int u = 0;
  while (bytes >= 1024 && u < 5) bytes /= 1024, ++u;
  return fmt::format("{:.1f} {}", bytes, units[u]);
}

// The directories the files go to: the locations, or the current directory.
std::vector<PostmarkLocation> bases_of(const PostmarkConfig& config) {
  if (!config.locations.empty()) return config.locations;
  return {PostmarkLocation{".", 1}};
}

// The subdirectories s0..s<n-1> in every location (or the current directory): made when absent; returns the
// ones this run created, so that only those are removed afterwards.
std::vector<std::string> make_subdirectories(const PostmarkConfig& config, const std::vector<std::string>& names) {
  std::vector<std::string> created;
  for (const PostmarkLocation& l : bases_of(config)) {
    for (const std::string& n : names) {
      const std::string path = config.locations.empty() ? n : l.path + "/" + n;
      struct stat st {};
      if (::stat(path.c_str(), &st) == 0) continue;  // the user's: never journaled, never removed
      journal_creating(path);
      if (::mkdir(path.c_str(), 0700) == 0) {
        journal_created_tree(path);  // a killed run's subdirectory is removed, files and all, by the next start
        created.push_back(path);
      } else {
        journal_removed(path);
      }
    }
  }
  return created;
}

std::int64_t seconds_now() { return static_cast<std::int64_t>(std::time(nullptr)); }

// The three timed phases: pool creation, transactions, deletion of what is left; time() at each boundary as
// PostMark takes it, and the monotonic clock beside it.
void run_phases(PostmarkWorkload& workload, PostmarkRunResult& r,
                const std::function<void(const std::string&)>& progress, const std::function<bool()>& stop) {
  r.start_s = seconds_now();
  const std::uint64_t t0 = monotonic_ns();
  progress("Creating files...");
  const bool pool_complete = workload.create_pool(stop);
  r.pool_created = workload.counts().created;
  if (pool_complete) progress("Done\n");
  const std::uint64_t t1 = monotonic_ns();

  PostmarkWorkload::TransactionsEnd tx_end = PostmarkWorkload::TransactionsEnd::kStopped;
  r.transactions_start_s = seconds_now();
  if (pool_complete) {
    progress("Performing transactions");
    tx_end = workload.run_transactions(stop, [&] {
      ++r.progress_ticks;
      progress(".");
    });
  }
  r.transactions_end_s = seconds_now();
  const std::uint64_t t2 = monotonic_ns();
  r.transactions_done = workload.transactions_done();
  if (tx_end == PostmarkWorkload::TransactionsEnd::kDone) {
    progress("Done\n");
  } else if (tx_end == PostmarkWorkload::TransactionsEnd::kOutOfFiles) {
    progress(
        "out of files!\nFor this workload, either increase the number of files or\n"
        "decrease the number of transactions.\n");
    r.end = PostmarkRunResult::End::kOutOfFiles;
  } else {
    progress("interrupted\n");
    r.end = PostmarkRunResult::End::kInterrupted;
  }

  progress("Deleting files...");
  const std::int64_t deleted_before = workload.counts().deleted;
  workload.delete_all();
  r.deleted_alone = workload.counts().deleted - deleted_before;
  progress("Done\n");
  r.end_s = seconds_now();
  const std::uint64_t t3 = monotonic_ns();
  r.creation_ns = t1 - t0;
  r.transactions_ns = t2 - t1;
  r.deletion_ns = t3 - t2;
}

}  // namespace

void check_postmark_locations(const PostmarkConfig& config) {
  const std::vector<PostmarkLocation> bases = bases_of(config);
  const double total_weight = config.locations.empty() ? 1.0 : config.total_weight();
  const double mean_size = (static_cast<double>(config.size_low) + config.size_high) / 2;
  for (const PostmarkLocation& l : bases) {
    const std::string shown = config.locations.empty() ? "the current directory" : "location '" + l.path + "'";
    struct stat st {};
    if (::stat(l.path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
      throw UserError("postmark: " + shown + " is not a directory (set location)");
    }
    if (::access(l.path.c_str(), W_OK | X_OK) != 0) {
      throw UserError("postmark: " + shown + " is not writable: " + std::strerror(errno) + " (set location)");
    }
    struct statvfs fs {};
    if (::statvfs(l.path.c_str(), &fs) != 0) continue;  // nothing to go by: let the run find out
    const double block = fs.f_frsize ? static_cast<double>(fs.f_frsize) : 4096.0;
    const double per_file = std::ceil(mean_size / block) * block;
    const double need = per_file * config.number * (l.weight / total_weight);
    const double free_bytes = static_cast<double>(fs.f_bavail) * block;
    if (free_bytes < need) {
      throw UserError(fmt::format(
          "postmark: {} has {} free, but its share of the pool ({} files of {} to {} bytes) needs about {}; "
          "lower 'set number' or 'set size', or choose another location",
          shown, human_bytes(free_bytes), static_cast<std::int64_t>(config.number * (l.weight / total_weight)),
          config.size_low, config.size_high, human_bytes(need)));
    }
  }
}

PostmarkRunResult run_postmark(const PostmarkConfig& config, const std::function<void(const std::string&)>& progress,
                               const std::function<bool()>& stop) {
  check_postmark_locations(config);
  PostmarkRunResult r;
  r.config = config;
  r.timestamp_ms = static_cast<std::int64_t>(wall_clock_ms());
  std::error_code ec;
  r.cwd = std::filesystem::current_path(ec).string();
  std::vector<std::string> paths;
  for (const PostmarkLocation& l : bases_of(config)) paths.push_back(config.locations.empty() ? r.cwd : l.path);
  r.environment = capture_environment(paths);

  PostmarkDiskFiles files(config.buffered, config.read_block, config.write_block);
  PostmarkWorkload workload(config, files);
  const std::vector<std::string> subdirectory_names = workload.subdirectory_paths();
  std::vector<std::string> made;
  if (!subdirectory_names.empty()) {
    progress("Creating subdirectories...");
    made = make_subdirectories(config, subdirectory_names);
    progress("Done\n");
  }
  auto remove_made = [&] {
    for (const std::string& d : made) {
      if (::rmdir(d.c_str()) == 0) journal_removed(d);
    }
  };

  try {
    run_phases(workload, r, progress, stop);
  } catch (...) {
    for (const std::string& f : workload.remaining_files()) std::remove(f.c_str());
    remove_made();
    throw;
  }
  if (!made.empty()) {
    progress("Deleting subdirectories...");
    remove_made();
    progress("Done\n");
  }
  r.counts = workload.counts();
  r.latencies = files.latencies();
  return r;
}

}  // namespace sluice
