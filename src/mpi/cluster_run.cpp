#include "mpi/cluster_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>

#include "common/error.h"
#include "common/stop_signal.h"
#include "mpi/watchdog.h"
#include "mpi/wearout_run.h"
#include "run/plan.h"

namespace sluice::mpi {
namespace {

constexpr int kExitFailed = 1;
constexpr int kExitInterrupted = 130;
constexpr auto kGrace = std::chrono::seconds(120);

// The meeting points of a run: each is a vote of every rank (all_ok). Once a vote fails, this rank stops
// (request_stop) and meets no more, so every rank goes on to the gather together.
class MeetingPoints {
 public:
  explicit MeetingPoints(std::size_t expected) : expected_(expected) {}
  void meet() {
    if (failed_seen_ || done_ >= expected_) return;
    ++done_;
    if (!all_ok(true)) stop();
  }
  // This rank failed or stopped early: tells the others at their next meeting point (if one is left).
  void fail() {
    if (failed_seen_ || done_ >= expected_) return;
    ++done_;
    all_ok(false);
    stop();
  }
  // A rank that ran fewer groups than the others (stopped by a signal) must not leave them waiting.
  void finish() {
    if (done_ < expected_) fail();
  }
  bool failed_seen() const noexcept { return failed_seen_; }

 private:
  void stop() {
    failed_seen_ = true;
    request_stop();
  }
  std::size_t expected_;
  std::size_t done_ = 0;
  bool failed_seen_ = false;
};

std::string signal_name(int signal) {
  const char* abbreviation = sigabbrev_np(signal);  // "TERM"
  return abbreviation != nullptr ? std::string("SIG") + abbreviation : "signal " + std::to_string(signal);
}

std::string job_failures(const std::vector<GroupResult>& groups) {
  std::string out;
  for (const GroupResult& g : groups) {
    for (const JobResult& j : g.jobs) {
      if (j.error != 0) out += fmt::format("{}job {}: {}", out.empty() ? "" : "; ", j.name, j.error_message);
    }
  }
  return out;
}

}  // namespace

std::vector<JobSpec> per_rank_jobs(std::vector<JobSpec> jobs, int rank) {
  for (JobSpec& job : jobs) {
    // Each rank's own io log: one file written by every rank would interleave their lines.
    if (!job.iolog.write_iolog.empty()) job.iolog.write_iolog += ".rank" + std::to_string(rank);
    if (!job.target.filenames.empty() || !job.target.unique_filename) continue;
    const std::string format =
        job.target.filename_format.empty() ? "$jobname.$jobnum.$filenum" : job.target.filename_format;
    job.target.filename_format = format + ".rank" + std::to_string(rank);
  }
  return jobs;
}

std::chrono::nanoseconds default_time_limit(const std::vector<JobSpec>& jobs) {
  std::map<int, std::chrono::nanoseconds> longest;  // per group
  for (const GroupPlan& group : make_plan(jobs)) {
    for (const JobInstance& job : group.jobs) {
      if (job.spec.time.runtime.count() == 0) return std::chrono::nanoseconds(0);
      const auto total = job.spec.time.startdelay + job.spec.time.ramp_time + job.spec.time.runtime;
      longest[group.groupid] = std::max(longest[group.groupid], total);
    }
  }
  std::chrono::nanoseconds sum = kGrace;
  for (const auto& [id, t] : longest) sum += t;
  return sum;
}

ClusterRun run_cluster(const std::vector<JobSpec>& jobs, RunnerOptions options) {
  const std::vector<JobSpec> mine = per_rank_jobs(jobs, rank());
  std::chrono::nanoseconds limit = time_limit().count() > 0 ? time_limit() : default_time_limit(mine);
  if (wearout() && time_limit().count() == 0) limit *= 2;  // a rank half as fast needs a runtime more
  Watchdog watchdog(limit);
  const std::vector<ClockOffset> offsets = clock_offsets();
  MeetingPoints meetings(2 * make_plan(mine).size());
  options.before_measure = [&meetings] { meetings.meet(); };
  options.after_measure = [&meetings] { meetings.meet(); };

  RunResult local;
  RankReport report;
  report.rank = rank();
  report.host = hostname();
  start_stop_relay();
  try {
    local = run_jobs(mine, options);
    meetings.finish();
  } catch (const std::exception& e) {
    report.failure = e.what();
    std::fprintf(stderr, "sluice[%s]: %s\n", where().c_str(), e.what());
    meetings.fail();
  }
  end_stop_relay();
  report.stop_signal = stop_signal_number();
  if (wearout()) {
    // Collective: either every rank catches up or none (one failed or was interrupted).
    const bool ready = report.failure.empty() && !local.interrupted && job_failures(local.groups).empty();
    if (all_ok(ready)) {
      try {
        report.wearout = run_wearout(mine, local, options);
      } catch (const std::exception& e) {
        report.failure = std::string("stonewall wear-out: ") + e.what();
        std::fprintf(stderr, "sluice[%s]: %s\n", where().c_str(), report.failure.c_str());
      }
    }
  }
  report.interrupted = local.interrupted;
  // Empty when the rank failed before capturing it.
  report.environment = local.environment.empty() ? std::string() : local.environment.dump();
  report.groups = local.groups;
  const std::vector<std::string> texts = gather(encode_rank_report(report));

  ClusterRun out;
  const bool failed_here = !report.failure.empty() || !job_failures(report.groups).empty();
  out.exit_code = failed_here ? kExitFailed : (local.interrupted ? kExitInterrupted : 0);
  if (rank() != 0) return out;

  std::size_t signalled = 0;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    RankReport r = decode_rank_report(texts[i]);
    if (i < offsets.size()) r.clock = offsets[i];
    std::string failure = r.failure.empty() ? job_failures(r.groups) : r.failure;
    if (!failure.empty()) out.failures.push_back(fmt::format("{} (rank {}): {}", r.host, r.rank, failure));
    signalled += r.stop_signal != 0 ? 1 : 0;
    out.ranks.push_back(std::move(r));
  }
  // A signal to some ranks only (a host's own kill, not ^C on mpirun) is that host's failure: name it.
  if (signalled > 0 && signalled < out.ranks.size()) {
    for (const RankReport& r : out.ranks) {
      if (r.stop_signal == 0) continue;
      out.failures.push_back(fmt::format("{} (rank {}): stopped by {}; the other ranks were stopped with it", r.host,
                                         r.rank, signal_name(r.stop_signal)));
    }
  }
  std::size_t groups = 0;
  for (const RankReport& r : out.ranks) groups = std::max(groups, r.groups.size());
  out.combined = std::move(local);
  out.combined.groups.clear();
  for (std::size_t g = 0; g < groups; ++g) {
    GroupAggregate aggregate = aggregate_group(out.ranks, g);
    GroupResult group;
    group.groupid = aggregate.groupid;
    group.group_reporting = true;  // the entry's bw/iops samples then come from the summed series
    group.jobs.push_back(aggregate.all);
    out.combined.groups.push_back(std::move(group));
    out.wearouts.push_back(aggregate_wearout(out.ranks, g, aggregate));
    out.groups.push_back(std::move(aggregate));
  }
  bool interrupted = false;
  for (const RankReport& r : out.ranks) interrupted = interrupted || r.interrupted;
  out.combined.interrupted = interrupted || !out.failures.empty();
  out.exit_code = !out.failures.empty() ? kExitFailed : (interrupted ? kExitInterrupted : 0);
  return out;
}

}  // namespace sluice::mpi
