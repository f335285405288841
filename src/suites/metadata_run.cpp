#include "suites/metadata_run.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

#include "common/clock.h"
#include "common/created_files.h"
#include "common/error.h"
#include "common/stop_signal.h"

namespace sluice {
namespace {

std::string local_host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "localhost";
  return name;
}

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
    throw UserError(fmt::format("{} has {} free inodes, the run needs {}; use a smaller -n/--items or tree", r.path,
                                r.fs.free_inodes, needed));
  }
}

// Creates DIR/sluice-metadata.<pid>[.N], journaled so that `sluice restore` finds it after a kill.
std::string make_metadata_dir(const std::string& directory) {
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
class MetadataDirGuard {
 public:
  explicit MetadataDirGuard(std::string path) : path_(std::move(path)) {}
  ~MetadataDirGuard() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
    if (!ec) journal_removed(path_);
  }
  MetadataDirGuard(const MetadataDirGuard&) = delete;
  MetadataDirGuard& operator=(const MetadataDirGuard&) = delete;

 private:
  std::string path_;
};

// The work directory another process named: used as it is on a shared file system, created where this
// process does not see it. True when created here (the caller then removes it, as its own).
bool join_work_dir(const std::string& path) {
  journal_creating(path);
  if (::mkdir(path.c_str(), 0755) == 0) {
    journal_created_tree(path);
    return true;
  }
  const int error = errno;
  journal_removed(path);
  if (error != EEXIST) {
    throw UserError(fmt::format("-d/--dir: cannot create {} on this host: {}", path, std::strerror(error)));
  }
  return false;
}

nlohmann::json phase_latency_json(const std::array<OpLatency, kMetadataPhaseCount>& latency) {
  nlohmann::json out = nlohmann::json::array();
  for (const OpLatency& l : latency) {
    out.push_back({{"histogram", l.histogram.to_json()}, {"sum_ns", l.sum_ns}, {"max_ns", l.max_ns}});
  }
  return out;
}

void merge_latency_json(std::array<OpLatency, kMetadataPhaseCount>& into, const nlohmann::json& j) {
  for (std::size_t p = 0; p < kMetadataPhaseCount && p < j.size(); ++p) {
    OpLatency l;
    l.histogram = LatencyHistogram::from_json(j[p].at("histogram"));
    l.sum_ns = j[p].at("sum_ns").get<std::uint64_t>();
    l.max_ns = j[p].at("max_ns").get<std::uint64_t>();
    into[p].merge(l);
  }
}

// Process 0 learns every process's host, latencies and first error; the others keep their own.
void gather_processes(ProcessGroup& processes, MetadataResult& r, std::string& error) {
  const nlohmann::json mine = {
      {"host", processes.host()}, {"error", error}, {"latency", phase_latency_json(r.latency)}};
  const std::vector<std::string> all = processes.gather(mine.dump());
  r.hosts = {processes.host()};
  if (processes.rank() != 0) return;
  r.hosts.clear();
  r.latency = {};
  for (std::size_t rank = 0; rank < all.size(); ++rank) {
    const nlohmann::json theirs = nlohmann::json::parse(all[rank]);
    const std::string host = theirs.at("host").get<std::string>();
    r.hosts.push_back(host);
    merge_latency_json(r.latency, theirs.at("latency"));
    const std::string their_error = theirs.at("error").get<std::string>();
    if (error.empty() && !their_error.empty()) error = fmt::format("{} (rank {}): {}", host, rank, their_error);
  }
}

}  // namespace

MetadataResult run_metadata(const MetadataOptions& options, std::vector<std::string> command_line,
                            ProcessGroup* processes) {
  MetadataResult r;
  r.options = options;
  r.plan = make_metadata_plan(options, processes == nullptr ? 1 : processes->size());
  r.threads_per_process = options.threads == 0 ? 1 : options.threads;
  r.command_line = std::move(command_line);
  std::string problem;  // under MPI: every rank checks its DIR, then they agree before anything is created
  try {
    r.fs = fs_usage(options.directory);
    std::error_code ec;
    r.path = std::filesystem::absolute(options.directory, ec).lexically_normal().string();
    if (ec) r.path = options.directory;
    if (r.path.size() > 1 && r.path.back() == '/') r.path.pop_back();
    check_inodes(r);
  } catch (const UserError& e) {
    if (processes == nullptr) throw;
    problem = e.what();
  }
  if (processes != nullptr) {
    const std::uint64_t failing = processes->sum(problem.empty() ? 0 : 1);
    if (!problem.empty()) throw UserError(problem);
    if (failing > 0) {
      throw UserError("metadata: another rank cannot use its -d/--dir (its message says why); nothing was created");
    }
  }
  r.notes = r.plan.notes;
  r.started = now_text();
  r.timestamp_ms = wall_clock_ms();
  std::optional<MetadataDirGuard> guard;
  if (processes == nullptr || processes->rank() == 0) {
    r.work_dir = make_metadata_dir(r.path);
    guard.emplace(r.work_dir);
    if (processes != nullptr) processes->broadcast(r.work_dir);
  } else {
    r.work_dir = processes->broadcast("");
    if (join_work_dir(r.work_dir)) guard.emplace(r.work_dir);
  }
  // Every process has its work directory before any worker uses it.
  if (processes != nullptr) processes->barrier();

  const std::uint32_t threads = r.threads_per_process;
  ThreadTeam team(threads, processes);
  std::vector<MetadataWorkerOutput> outputs(threads);
  {
    std::vector<std::jthread> workers;
    for (std::uint32_t thread = 1; thread < threads; ++thread) {
      workers.emplace_back([&, thread] {
        const auto comm = team.member(thread);
        run_metadata_worker(*comm, r.options, r.plan, r.work_dir, outputs[thread]);
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
  std::string error;
  for (const MetadataWorkerOutput& out : outputs) {
    if (error.empty() && !out.error.empty()) error = out.error;
  }
  r.interrupted = outputs[0].stopped || stop_requested();
  if (processes != nullptr) {
    gather_processes(*processes, r, error);
    processes->barrier();  // every process is done with the directory before process 0 removes it
  } else {
    r.hosts = {local_host_name()};
  }
  if (processes != nullptr && processes->rank() != 0) {
    r.failed = !error.empty();
    return r;
  }
  if (!error.empty()) throw IoError(fmt::format("metadata: {}", error), 0);
  return r;
}

}  // namespace sluice
