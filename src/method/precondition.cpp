// sluice precondition: the sequential passes, the steady-state rounds, and their report.
#include "method/precondition.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "common/created_files.h"
#include "common/error.h"
#include "common/stop_signal.h"
#include "engine/engine.h"
#include "job/units.h"
#include "method/lint.h"
#include "run/runner.h"
#include "stats/steady_state.h"

namespace sluice {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

EngineKind best_async_engine() {
  if (engine_available(EngineKind::kIoUring)) return EngineKind::kIoUring;
  return engine_available(EngineKind::kLibaio) ? EngineKind::kLibaio : EngineKind::kPsync;
}

// Creates the file when missing (sparse, `size` bytes; the first pass fills it). Returns true if it did.
bool create_if_missing(const std::string& path, std::uint64_t size) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) return false;
  if (errno != ENOENT) throw UserError(fmt::format("cannot access {}: {}", path, std::strerror(errno)));
  if (size == 0) throw UserError(fmt::format("--size is needed to create {}", path));
  journal_creating(path);
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int error = errno;
    journal_removed(path);
    throw UserError(fmt::format("cannot create {}: {}", path, std::strerror(error)));
  }
  journal_created(path);
  const bool sized = ::ftruncate(fd, static_cast<off_t>(size)) == 0;
  const int error = errno;
  ::close(fd);
  if (!sized) {
    ::unlink(path.c_str());
    journal_removed(path);
    throw UserError(fmt::format("cannot size {} to {} bytes: {}", path, size, std::strerror(error)));
  }
  return true;
}

bool accepts_o_direct(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC);
  if (fd >= 0) ::close(fd);
  return fd >= 0 || errno != EINVAL;
}

JobSpec pass_job(const PreconditionRequest& request, std::uint32_t number, bool direct) {
  JobSpec job;
  job.name = fmt::format("precondition-pass{}", number);
  job.target.filenames = {request.filename};
  job.target.size.bytes = request.size;
  job.workload.rw = RwMode::kWrite;
  job.workload.bs = {request.block_size, request.block_size, request.block_size};
  job.engine.ioengine = best_async_engine();
  job.queue.iodepth = engine_traits(job.engine.ioengine).honours_iodepth() ? request.iodepth : 1;
  job.target.direct = direct;
  job.durability.end_fsync = !direct;  // buffered: the pass is done when the data is on the device
  return job;
}

RunnerOptions runner_options(const PreconditionRequest& request, bool lint) {
  RunnerOptions options;
  options.allow_destructive = request.allow_destructive;
  options.status_line = request.status_line;
  if (lint) install_lint(options);
  return options;
}

void say(const PreconditionRequest& request, const std::string& line) {
  if (request.progress) {
    request.progress(line);
  } else {
    std::fprintf(stderr, "%s\n", line.c_str());
  }
}

// The rounds' jobs. area: the bytes the passes wrote (the null engine needs a size; files have theirs).
std::vector<JobSpec> round_jobs(const PreconditionRequest& request, std::uint64_t area) {
  std::vector<JobSpec> jobs = request.workload;
  for (JobSpec& job : jobs) {
    if (job.target.filenames.empty() && job.target.directory.empty()) job.target.filenames = {request.filename};
    if (!job.target.size.is_set() && job.target.filesize == 0)
      job.target.size.bytes = request.size != 0 ? request.size : area;
    job.time.runtime = request.round;
    job.time.time_based = true;
  }
  return jobs;
}

void run_passes(const PreconditionRequest& request, PreconditionResult& result) {
  for (std::uint32_t n = 1; n <= request.passes && !stop_requested(); ++n) {
    result.last_run = run_jobs({pass_job(request, n, result.direct)}, runner_options(request, false));
    if (result.last_run.interrupted) return;
    const PreconditionPass pass = pass_of(result.last_run);
    result.passes.push_back(pass);
    say(request,
        fmt::format("sluice: precondition pass {} of {}: wrote {} in {:.1f} s ({:.1f} MiB/s)", n, request.passes,
                    format_bytes(static_cast<double>(pass.bytes)), pass.seconds, pass.mib_per_s));
  }
}

void run_rounds(const PreconditionRequest& request, PreconditionResult& result) {
  const std::vector<JobSpec> jobs = round_jobs(request, result.passes.empty() ? 0 : result.passes.front().bytes);
  for (std::uint32_t n = 1; n <= request.max_rounds && !stop_requested(); ++n) {
    RunResult run = run_jobs(jobs, runner_options(request, n == 1));  // the lint block once
    const bool interrupted = run.interrupted;
    if (n > 1)
      run.warnings.insert(run.warnings.begin(), result.last_run.warnings.begin(), result.last_run.warnings.end());
    result.last_run = std::move(run);
    if (interrupted) return;
    result.rounds.push_back(round_of(result.last_run, n));
    const PreconditionRound& r = result.rounds.back();
    say(request,
        fmt::format("sluice: round {}: {:.0f} IOPS, mean latency {}", n, r.iops, format_duration_ns(r.lat_mean_ns)));
    result.steady_round = first_steady_round(result.rounds, request.window);
    if (result.steady_round) {
      result.steady = true;
      say(request, fmt::format("sluice: steady state reached at round {} (SNIA rule over rounds {}-{})",
                               *result.steady_round, *result.steady_round + 1 - request.window, *result.steady_round));
      return;
    }
  }
  if (!result.rounds.empty()) {
    say(request, fmt::format("sluice: no steady state within {} rounds", result.rounds.size()));
  }
}

}  // namespace

std::vector<std::string> default_workload_options() {
  return {"--rw=randwrite", "--bs=4k", fmt::format("--ioengine={}", engine_name(best_async_engine())), "--iodepth=32",
          "--direct=1"};
}

PreconditionResult run_precondition(const PreconditionRequest& request) {
  if (request.filename.empty()) throw UserError("precondition needs --filename (a file or a block device)");
  if (request.block_size == 0 || request.block_size % 512 != 0) {
    throw UserError(fmt::format("--bs={}: a multiple of 512 bytes is needed", request.block_size));
  }
  if (request.window == 0) throw UserError("the steady-state window needs at least one round");
  if (!request.workload.empty() && request.round.count() <= 0) throw UserError("--round must be positive");
  install_stop_signal_handlers();
  PreconditionResult result;
  result.created_file = create_if_missing(request.filename, request.size);
  result.direct = accepts_o_direct(request.filename);
  if (!result.direct) {
    say(request, fmt::format("sluice: warning: {} refuses O_DIRECT; the passes write buffered and fsync at the end",
                             request.filename));
  }
  run_passes(request, result);
  if (!request.workload.empty() && !result.last_run.interrupted) run_rounds(request, result);
  result.last_run.command = "precondition";
  result.last_run.extra["precondition"] = precondition_json(result);
  return result;
}

PreconditionRound round_of(const RunResult& run, std::uint32_t number) {
  PreconditionRound round;
  round.round = number;
  std::uint64_t ios = 0;
  std::uint64_t runtime_ns = 0;
  double lat_sum = 0;
  std::uint64_t lat_count = 0;
  for (const GroupResult& group : run.groups) {
    for (const JobResult& job : group.jobs) {
      runtime_ns = std::max(runtime_ns, job.runtime_ns);
      for (const DirectionStats& d : job.dirs) {
        ios += d.ios;
        lat_sum += d.lat.moments.mean() * static_cast<double>(d.lat.count());
        lat_count += d.lat.count();
      }
    }
  }
  if (runtime_ns > 0) round.iops = static_cast<double>(ios) * 1e9 / static_cast<double>(runtime_ns);
  if (lat_count > 0) round.lat_mean_ns = lat_sum / static_cast<double>(lat_count);
  return round;
}

PreconditionPass pass_of(const RunResult& run) {
  PreconditionPass pass;
  std::uint64_t runtime_ns = 0;
  for (const GroupResult& group : run.groups) {
    for (const JobResult& job : group.jobs) {
      runtime_ns = std::max(runtime_ns, job.runtime_ns);
      pass.bytes += job.dirs[index_of(Direction::kWrite)].bytes;
    }
  }
  pass.seconds = static_cast<double>(runtime_ns) / 1e9;
  if (runtime_ns > 0) pass.mib_per_s = static_cast<double>(pass.bytes) / kMiB / pass.seconds;
  return pass;
}

std::optional<std::uint32_t> first_steady_round(std::span<const PreconditionRound> rounds, std::size_t window) {
  std::vector<double> iops;
  for (const PreconditionRound& r : rounds) {
    iops.push_back(r.iops);
    if (snia_steady(iops, window)) return r.round;
  }
  return std::nullopt;
}

nlohmann::json precondition_json(const PreconditionResult& result) {
  nlohmann::json passes = nlohmann::json::array();
  for (const PreconditionPass& p : result.passes) {
    passes.push_back({{"bytes", p.bytes}, {"seconds", p.seconds}, {"mib_per_s", p.mib_per_s}});
  }
  nlohmann::json rounds = nlohmann::json::array();
  for (const PreconditionRound& r : result.rounds) {
    rounds.push_back({{"round", r.round}, {"iops", r.iops}, {"lat_mean_ns", r.lat_mean_ns}});
  }
  nlohmann::json out = nlohmann::json::object();
  out["passes"] = std::move(passes);
  out["direct"] = result.direct;
  out["rounds"] = std::move(rounds);
  out["steady"] = result.steady;
  out["steady_round"] = result.steady_round ? nlohmann::json(*result.steady_round) : nlohmann::json(nullptr);
  return out;
}

std::string render_precondition_table(const PreconditionResult& result) {
  std::string out = "Preconditioning (SNIA: the whole area written sequentially, each pass)\n";
  for (std::size_t i = 0; i < result.passes.size(); ++i) {
    const PreconditionPass& p = result.passes[i];
    out += fmt::format("  pass {}: {:>12}  {:8.1f} s  {:10.1f} MiB/s\n", i + 1,
                       format_bytes(static_cast<double>(p.bytes)), p.seconds, p.mib_per_s);
  }
  if (!result.direct) out += "  (buffered writes: the file system refused O_DIRECT)\n";
  if (result.rounds.empty()) return out;
  out +=
      "\nSteady-state rounds (SNIA: over the last rounds, IOPS range within 20% and excursion within 10% of "
      "the mean)\n";
  out += fmt::format("  {:>5}  {:>12}  {:>14}\n", "round", "IOPS", "mean latency");
  for (const PreconditionRound& r : result.rounds) {
    out += fmt::format("  {:>5}  {:>12.0f}  {:>14}\n", r.round, r.iops, format_duration_ns(r.lat_mean_ns));
  }
  out += result.steady ? fmt::format("steady: yes, at round {}\n", *result.steady_round)
                       : fmt::format("steady: no, within {} rounds\n", result.rounds.size());
  return out;
}

}  // namespace sluice
