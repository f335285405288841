#include "report/report_math.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>

namespace sluice::report {
namespace {

constexpr std::uint64_t kNsPerSec = 1'000'000'000ull;

// Index into kLatencyMsLabels of a value in the range's own unit: [0,2) -> 0, [2,4) -> 1, ... [750,1000) -> 9,
// [1000,2000) -> 10, >= 2000 -> 11.
int latency_range_index(std::uint64_t v) noexcept {
  static constexpr std::array<std::uint64_t, 11> kUpper = {2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000};
  for (std::size_t i = 0; i < kUpper.size(); ++i) {
    if (v < kUpper[i]) return static_cast<int>(i);
  }
  return 11;
}

double share_percent(std::uint64_t count, std::uint64_t total, double floor_percent) noexcept {
  if (total == 0 || count == 0) return 0.0;
  const double p = 100.0 * static_cast<double>(count) / static_cast<double>(total);
  return std::max(p, floor_percent);
}

const LatencyHistogram& completion_histogram(const DirectionStats& dir) noexcept {
  return dir.clat.histogram.total() > 0 ? dir.clat.histogram : dir.lat.histogram;
}

// Under group_reporting the entry's iops / bw samples describe the group's summed rate per interval (fio's
// group entry shows the group's rate, not a typical job's): they are derived from the merged (summed) time
// series, one sample per series interval (a job's own samples come from its bwavgtime / iopsavgtime windows,
// run/rate_sampler.h; the clones' windows do not line up, their series do).
void resample_from_series(JobResult& job) {
  const TimeSeries& series = job.series;
  if (series.size() == 0 || series.interval_ns() == 0) return;
  const double interval_s = static_cast<double>(series.interval_ns()) / 1e9;
  for (Direction d : kAllDirections) {
    DirectionStats& dir = job.dirs[static_cast<std::size_t>(index_of(d))];
    if (dir.ios == 0) continue;
    dir.iops_samples.reset();
    dir.bw_samples.reset();
    for (const PerDirection<IntervalSample>& sample : series.samples()) {
      const IntervalSample& s = sample[static_cast<std::size_t>(index_of(d))];
      dir.iops_samples.add(static_cast<double>(s.ops) / interval_s);
      dir.bw_samples.add(static_cast<double>(s.bytes) / interval_s);
    }
  }
}

}  // namespace

DirectionRates direction_rates(const JobResult& job, Direction d) {
  const DirectionStats& dir = job.dirs[static_cast<std::size_t>(index_of(d))];
  DirectionRates r;
  r.io_bytes = dir.bytes;
  if (dir.ios == 0 && dir.bytes == 0) return r;
  r.runtime_ns = job.runtime_ns;
  r.runtime_ms = ns_to_ms(job.runtime_ns);
  if (job.runtime_ns == 0) return r;
  const long double seconds = static_cast<long double>(job.runtime_ns) / kNsPerSec;
  r.bw_bytes = static_cast<std::uint64_t>(static_cast<long double>(dir.bytes) / seconds);
  r.bw_kib = r.bw_bytes / 1024;
  r.iops = finite_or_zero(static_cast<double>(static_cast<long double>(dir.ios) / seconds));
  return r;
}

LatencyBuckets latency_buckets(const JobResult& job) {
  std::array<std::uint64_t, 10> ns{};
  std::array<std::uint64_t, 10> us{};
  std::array<std::uint64_t, 12> ms{};
  std::uint64_t total = 0;
  for (const DirectionStats& dir : job.dirs) {
    const LatencyHistogram& h = completion_histogram(dir);
    if (h.total() == 0) continue;
    total += h.total();
    for (int b = 0; b < LatencyHistogram::kNumBuckets; ++b) {
      const std::uint64_t c = h.count_at(b);
      if (c == 0) continue;
      const std::uint64_t v = LatencyHistogram::bucket_value(b);
      if (v < 1000) {
        ns[static_cast<std::size_t>(latency_range_index(v))] += c;
      } else if (v < 1'000'000) {
        us[static_cast<std::size_t>(latency_range_index(v / 1000))] += c;
      } else {
        ms[static_cast<std::size_t>(latency_range_index(v / 1'000'000))] += c;
      }
    }
  }
  LatencyBuckets out;
  for (std::size_t i = 0; i < ns.size(); ++i) out.ns[i] = share_percent(ns[i], total, 0.01);
  for (std::size_t i = 0; i < us.size(); ++i) out.us[i] = share_percent(us[i], total, 0.01);
  for (std::size_t i = 0; i < ms.size(); ++i) out.ms[i] = share_percent(ms[i], total, 0.01);
  return out;
}

std::array<double, 7> depth_percentages(const std::array<std::uint64_t, 7>& counts, std::uint64_t total) {
  std::array<double, 7> out{};
  for (std::size_t i = 0; i < counts.size(); ++i) out[i] = share_percent(counts[i], total, 0.1);
  return out;
}

GroupResult foreground_of(const GroupResult& group) {
  GroupResult out;
  out.groupid = group.groupid;
  out.group_reporting = group.group_reporting;
  for (const JobResult& job : group.jobs) {
    if (!job.settings.background && job.settings.stats) out.jobs.push_back(job);
  }
  return out;
}

namespace {
// One job reported as it is: a copy, without its series when the series may be borrowed (unless the
// report derives the mixed direction's samples from the entry's own series: unified_rw_reporting).
ReportedJob reported_as_is(const JobResult& job, SeriesCopy series) {
  if (series == SeriesCopy::kCopy || job.settings.unified_rw_reporting) return {job, job.merged_jobs, job.runtime_ns};
  JobResult copy = job;  // the series' copy lives only until the next line: one at a time
  copy.series = TimeSeries(job.series.base_interval_ns());
  return {std::move(copy), job.merged_jobs, job.runtime_ns, &job.series};
}
}  // namespace

std::vector<ReportedJob> background_jobs(const GroupResult& group, SeriesCopy series) {
  std::vector<ReportedJob> out;
  for (const JobResult& job : group.jobs) {
    if (job.settings.background && job.settings.stats) out.push_back(reported_as_is(job, series));
  }
  return out;
}

PerDirection<GroupDirectionTotals> background_totals(const JobResult& job) {
  GroupResult alone;
  alone.jobs.push_back(job);
  alone.jobs.back().settings.background = false;
  return group_totals(alone);
}

PerDirection<GroupDirectionTotals> group_totals(const GroupResult& group) {
  PerDirection<GroupDirectionTotals> totals{};
  for (Direction d : kAllDirections) {
    GroupDirectionTotals& t = totals[static_cast<std::size_t>(index_of(d))];
    std::uint64_t max_runtime_ns = 0;
    t.min_bw_bytes = std::numeric_limits<std::uint64_t>::max();
    t.min_run_ms = std::numeric_limits<std::uint64_t>::max();
    for (const JobResult& job : group.jobs) {
      if (job.settings.background || !job.settings.stats) continue;
      const DirectionRates r = direction_rates(job, d);
      if (r.runtime_ns == 0) continue;
      t.active = true;
      t.io_bytes += r.io_bytes;
      max_runtime_ns = std::max(max_runtime_ns, r.runtime_ns);
      t.min_bw_bytes = std::min(t.min_bw_bytes, r.bw_bytes);
      t.max_bw_bytes = std::max(t.max_bw_bytes, r.bw_bytes);
      t.min_run_ms = std::min(t.min_run_ms, r.runtime_ms);
      t.max_run_ms = std::max(t.max_run_ms, r.runtime_ms);
    }
    if (!t.active) {
      t = GroupDirectionTotals{};
      continue;
    }
    t.agg_bw_bytes = static_cast<std::uint64_t>(static_cast<long double>(t.io_bytes) * kNsPerSec /
                                                static_cast<long double>(max_runtime_ns));
  }
  return totals;
}

double percent_of_group(double mean_bw_bytes, std::uint64_t group_agg_bw_bytes) {
  if (group_agg_bw_bytes == 0 || !(mean_bw_bytes > 0)) return 0.0;
  const double p = 100.0 * mean_bw_bytes / static_cast<double>(group_agg_bw_bytes);
  return std::min(finite_or_zero(p), 100.0);
}

int prios_with_samples(const DirectionStats& dir) noexcept {
  int n = 0;
  for (const PrioLatency& p : dir.prios) n += p.latency.count() > 0 ? 1 : 0;
  return n;
}

std::vector<ReportedJob> reported_jobs(const GroupResult& all, SeriesCopy series) {
  std::vector<ReportedJob> out;
  if (!all.group_reporting) {  // each foreground job as it is (one copy: a long run's series are large)
    for (const JobResult& job : all.jobs) {
      if (!job.settings.background && job.settings.stats) out.push_back(reported_as_is(job, series));
    }
    return out;
  }
  const GroupResult group = foreground_of(all);
  if (!group.jobs.empty()) {
    std::uint64_t clones = 0;
    std::uint64_t runtime_ns = 0;
    for (const JobResult& job : group.jobs) {
      clones += job.merged_jobs;
      runtime_ns += job.runtime_ns;
    }
    out.push_back({group.aggregate(), clones, runtime_ns});
    resample_from_series(out.back().job);
    return out;
  }
  out.reserve(group.jobs.size());
  for (const JobResult& job : group.jobs) out.push_back({job, job.merged_jobs, job.runtime_ns});
  return out;
}

bool continues_on_error(const JobResult& job) {
  const auto coe = job.options.find("continue_on_error");
  if (coe != job.options.end() && coe->second != "none" && coe->second != "0" && coe->second != "false") return true;
  const auto ignore = job.options.find("ignore_error");
  return ignore != job.options.end() && ignore->second.find_first_not_of(",:") != std::string::npos;
}

int first_passed_error(const JobResult& job) {
  if (job.error != 0) return 0;
  for (int e = 1; e < 134; ++e) {
    const std::string text = std::string(": ") + std::strerror(e);
    const std::string& m = job.error_message;
    if (m.size() >= text.size() && m.compare(m.size() - text.size(), text.size(), text) == 0) return e;
  }
  return 0;
}

int reported_error(const JobResult& job) {
  if (job.error != 0) return job.error;
  return continues_on_error(job) ? first_passed_error(job) : 0;
}

}  // namespace sluice::report
