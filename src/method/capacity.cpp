// find_capacity: the real measurements behind the search. A point runs in segments (run_jobs, time_based,
// with a short unmeasured ramp each) until its per-interval IOPS series is steady or its time share is
// spent; the segments' results are appended into one. No latency_target-style abort: a slow I/O is a
// sample like any other.
#include "method/capacity.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "common/error.h"
#include "common/stop_signal.h"
#include "job/units.h"
#include "method/lint.h"
#include "run/runner.h"
#include "stats/steady_state.h"

namespace sluice {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::string_view kLintHeading = "sluice: what could make these numbers mislead";
using std::chrono::nanoseconds;

struct Timing {
  nanoseconds ramp;
  nanoseconds interval;
  std::size_t window;
};

Timing timing_of(const CapacityRequest& request) {
  Timing t;
  t.ramp = request.ramp_time.count() > 0 ? request.ramp_time
                                         : std::min<nanoseconds>(std::chrono::milliseconds(500), request.budget / 40);
  t.interval = request.sample_interval.count() > 0
                   ? request.sample_interval
                   : std::min<nanoseconds>(std::chrono::milliseconds(250), request.budget / 80);
  t.interval = std::max<nanoseconds>(t.interval, std::chrono::milliseconds(10));
  t.window = std::max<std::size_t>(request.steady_window, 2);
  return t;
}

// Appends a later segment of the same job: counts and histograms add, times add, series concatenate.
void append_segment(JobResult& into, const JobResult& segment) {
  TimeSeries series = into.series;
  for (const auto& sample : segment.series.samples()) series.append(sample);
  const std::uint64_t runtime = into.runtime_ns + segment.runtime_ns;
  into.merge(segment);
  into.series = std::move(series);
  into.runtime_ns = runtime;
  into.merged_jobs = std::max(into.merged_jobs, segment.merged_jobs);
}

void append_run(RunResult& into, RunResult segment) {
  if (into.groups.empty()) {
    const nlohmann::json environment = std::move(into.environment);
    into = std::move(segment);
    if (into.environment.empty()) into.environment = environment;
    return;
  }
  into.interrupted = into.interrupted || segment.interrupted;
  for (std::size_t g = 0; g < into.groups.size() && g < segment.groups.size(); ++g) {
    auto& jobs = into.groups[g].jobs;
    for (std::size_t j = 0; j < jobs.size() && j < segment.groups[g].jobs.size(); ++j) {
      append_segment(jobs[j], segment.groups[g].jobs[j]);
    }
  }
}

// Per-interval IOPS of the whole point (all jobs, all directions), without each segment's partial last sample.
void append_iops_samples(const RunResult& segment, std::vector<double>& samples) {
  if (segment.groups.empty()) return;
  const JobResult all = segment.groups.front().aggregate();
  const double seconds = static_cast<double>(all.series.interval_ns()) / 1e9;
  const std::size_t n = all.series.size();
  for (std::size_t i = 0; i + 1 < n || (n == 1 && i == 0); ++i) {
    std::uint64_t ops = 0;
    for (const IntervalSample& s : all.series.at(i)) ops += s.ops;
    samples.push_back(seconds > 0 ? static_cast<double>(ops) / seconds : 0);
  }
}

CapacityPoint summarize(const RunResult& run, std::uint32_t iodepth, std::uint32_t numjobs) {
  CapacityPoint p;
  p.iodepth = iodepth;
  p.numjobs = numjobs;
  if (run.groups.empty()) return p;
  const JobResult all = run.groups.front().aggregate();
  LatencyStat lat;
  std::uint64_t ios = 0;
  for (const DirectionStats& d : all.dirs) {
    lat.merge(d.lat);
    ios += d.ios;
  }
  const double seconds = static_cast<double>(all.runtime_ns) / 1e9;
  p.iops = seconds > 0 ? static_cast<double>(ios) / seconds : 0;
  p.transactions_per_s = seconds > 0 ? static_cast<double>(all.rmw_transactions) / seconds : 0;
  p.lat_mean_ns = lat.moments.mean();
  p.lat_p50_ns = lat.histogram.percentile(50);
  p.lat_p95_ns = lat.histogram.percentile(95);
  p.lat_p99_ns = lat.histogram.percentile(99);
  p.lat_p999_ns = lat.histogram.percentile(99.9);
  p.interrupted = run.interrupted;
  return p;
}

class PointRunner {
 public:
  explicit PointRunner(const CapacityRequest& request) : request_(request), timing_(timing_of(request)) {}

  std::optional<CapacityPoint> measure(std::uint32_t iodepth, std::uint32_t numjobs, nanoseconds share) {
    const Clock::time_point start = Clock::now();
    RunResult run;
    std::vector<double> samples;
    bool steady = false;
    nanoseconds measured = timing_.interval * static_cast<std::int64_t>(timing_.window + 1);
    while (!stop_requested()) {
      const nanoseconds left = share - std::chrono::duration_cast<nanoseconds>(Clock::now() - start);
      if (!run.groups.empty() && left < timing_.ramp + timing_.interval * 2) break;
      measured = std::clamp<nanoseconds>(left - timing_.ramp, timing_.interval * 2, measured);
      const CapacitySegment plan{iodepth, numjobs, measured, first_};
      const std::vector<JobSpec> jobs = capacity_segment_jobs(request_, plan);
      const RunnerOptions options = runner_options(plan);
      RunResult segment = request_.run_segment ? request_.run_segment(plan, jobs, options) : run_jobs(jobs, options);
      keep_lint(segment);
      if (segment.groups.empty()) break;
      check_job_errors(segment);
      append_iops_samples(segment, samples);
      append_run(run, std::move(segment));
      steady = snia_steady(samples, timing_.window);
      if (steady || run.interrupted) break;
      measured = timing_.interval * static_cast<std::int64_t>(std::max<std::size_t>(timing_.window / 2, 2));
    }
    if (run.groups.empty()) return std::nullopt;
    CapacityPoint point = summarize(run, iodepth, numjobs);
    point.hosts = request_.hosts;
    point.steady = steady;
    point.runtime_s = std::chrono::duration<double>(Clock::now() - start).count();
    keep_if_best(point, std::move(run));
    report(point);
    return point;
  }

  RunResult take_final_run() {
    RunResult run = std::move(best_run_.groups.empty() ? first_run_ : best_run_);
    run.warnings = lint_;
    return run;
  }

 private:
  RunnerOptions runner_options(const CapacitySegment& plan) const {
    RunnerOptions options = capacity_segment_options(request_, plan);
    // The lint is kept once, by keep_lint, without the short-runtime findings (each segment is short on
    // purpose, and the steady-state test is the search's own); the report shows it, not stderr.
    options.notice = [first = plan.first](const std::string& text) {
      if (first && text.rfind(kLintHeading, 0) != 0) std::fprintf(stderr, "%s\n", text.c_str());
    };
    if (plan.first) install_lint(options);
    return options;
  }

  void keep_lint(RunResult& segment) {
    if (!first_) return;
    first_ = false;
    for (Problem& p : segment.warnings) {
      if (p.code != kLintShortRuntime && p.code != kLintNoRampTime) lint_.push_back(std::move(p));
    }
    segment.warnings.clear();  // the report shows them (final_run.warnings), never stderr
  }

  static void check_job_errors(const RunResult& run) {
    for (const GroupResult& g : run.groups) {
      for (const JobResult& j : g.jobs) {
        if (j.error != 0) throw UserError(fmt::format("job {}: {}", j.name, j.error_message));
      }
    }
  }

  void keep_if_best(const CapacityPoint& point, RunResult run) {
    const bool within =
        static_cast<double>(slo_stat_value(point, request_.slo_stat)) <= static_cast<double>(request_.slo.count());
    if (first_run_.groups.empty()) {
      environment_ = run.environment;
      first_run_ = run;
    }
    if (within && point.iops > best_iops_) {
      best_iops_ = point.iops;
      best_run_ = std::move(run);
      if (best_run_.environment.empty()) best_run_.environment = environment_;
    }
  }

  void report(const CapacityPoint& p) const {
    if (!request_.progress) return;
    request_.progress(fmt::format(
        "capacity: concurrency {:>4} ({} x {}{}): {:.0f} IOPS, mean lat {}, p99 {}{}", p.concurrency(), p.iodepth,
        p.numjobs, p.hosts > 1 ? fmt::format(" x {} hosts", p.hosts) : "", p.iops, format_duration_ns(p.lat_mean_ns),
        format_duration_ns(static_cast<double>(p.lat_p99_ns)), p.steady ? "" : " (not steady)"));
  }

  const CapacityRequest& request_;
  Timing timing_;
  bool first_ = true;
  double best_iops_ = -1;
  RunResult best_run_;
  RunResult first_run_;
  nlohmann::json environment_;
  std::vector<Problem> lint_;
};

}  // namespace

std::vector<JobSpec> capacity_segment_jobs(const CapacityRequest& request, const CapacitySegment& segment) {
  std::vector<JobSpec> jobs;
  for (const JobSpec& stream : request.streams) {
    JobSpec job = stream;
    job.queue.iodepth = segment.iodepth;
    job.control.numjobs = segment.numjobs;
    job.time.time_based = true;
    job.time.runtime = segment.measured;
    job.time.ramp_time = timing_of(request).ramp;
    job.report.group_reporting = true;
    job.control.stonewall = false;
    job.control.new_group = false;
    job.latency.max_latency = nanoseconds(0);  // one slow I/O must not end a point
    if (job.report.percentile_list.empty()) job.report.percentile_list = {50, 95, 99, 99.9};
    jobs.push_back(std::move(job));
  }
  return jobs;
}

RunnerOptions capacity_segment_options(const CapacityRequest& request, const CapacitySegment& segment) {
  RunnerOptions options;
  options.allow_destructive = request.allow_destructive;
  options.status_line = false;
  options.series_interval = timing_of(request).interval;
  options.capture_environment = segment.first;
  return options;
}

CapacityResult find_capacity(const CapacityRequest& request) {
  if (request.streams.empty()) throw UserError("capacity: no workload stream given");
  PointRunner runner(request);
  MeasurePoint measure = [&runner](std::uint32_t iodepth, std::uint32_t numjobs, nanoseconds share) {
    return runner.measure(iodepth, numjobs, share);
  };
  CapacityResult result = search_capacity(request, measure);
  result.final_run = runner.take_final_run();
  result.final_run.interrupted = result.interrupted;
  result.final_run.command = "capacity";
  result.final_run.extra["capacity"] = capacity_json(request, result);
  return result;
}

}  // namespace sluice
