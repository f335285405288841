// fio's terse ("minimal") output, versions 2 to 5: one semicolon-separated line per reported job, field for
// field as fio 3.33 writes it (fio's HOWTO, "Terse output"). Latencies are in microseconds (whole for
// min/max, six decimals for mean/stddev), bandwidth in KiB/s.
#include <fmt/format.h>

#include <string>

#include "report/report_math.h"
#include "report/reporters.h"
#include "report/unified.h"
#include "version.h"

namespace sluice {
namespace {

using report::GroupDirectionTotals;
using report::ReportedJob;

// fio's terse percentile list holds at most this many entries (FIO_IO_U_LIST_MAX_LEN); unused ones are "0%=0".
constexpr std::size_t kTersePercentiles = 20;

void append_latency(std::string& out, const LatencyStat& stat) {
  const Moments& m = stat.moments;
  if (m.count() == 0) {
    out += ";0;0;0.000000;0.000000";
    return;
  }
  out += fmt::format(";{};{};{:.6f};{:.6f}", static_cast<std::uint64_t>(m.min()) / 1000,
                     static_cast<std::uint64_t>(m.max()) / 1000, report::finite_or_zero(m.mean() / 1000.0),
                     report::finite_or_zero(m.stddev() / 1000.0));
}

void append_percentiles(std::string& out, const DirectionStats& dir, const JobReportSettings& s) {
  const LatencyStat* source = s.lat_percentiles ? &dir.lat : s.clat_percentiles ? &dir.clat : nullptr;
  const std::size_t listed = source ? std::min(s.percentile_list.size(), kTersePercentiles) : 0;
  for (std::size_t i = 0; i < kTersePercentiles; ++i) {
    if (i >= listed) {
      out += ";0%=0";
      continue;
    }
    const double p = s.percentile_list[i];
    const std::uint64_t ns = source->histogram.total() ? source->histogram.percentile(p) : 0;
    out += fmt::format(";{:.6f}%={}", p, ns / 1000);
  }
}

void append_bandwidth(std::string& out, const DirectionStats& dir, const GroupDirectionTotals& totals, int version) {
  const Moments& bw = dir.bw_samples;
  if (bw.count() == 0) {
    out += ";0;0;0.000000%;0.000000;0.000000";
  } else {
    out += fmt::format(";{};{};{:.6f}%;{:.6f};{:.6f}", static_cast<std::uint64_t>(bw.min() / 1024.0),
                       static_cast<std::uint64_t>(bw.max() / 1024.0),
                       report::percent_of_group(bw.mean(), totals.agg_bw_bytes),
                       report::finite_or_zero(bw.mean() / 1024.0), report::finite_or_zero(bw.stddev() / 1024.0));
  }
  if (version != 5) return;
  out += fmt::format(";{}", bw.count());
  const Moments& iops = dir.iops_samples;
  if (iops.count() == 0) {
    out += ";0;0;0.000000;0.000000;0";
  } else {
    out += fmt::format(";{};{};{:.6f};{:.6f};{}", static_cast<std::uint64_t>(iops.min()),
                       static_cast<std::uint64_t>(iops.max()), report::finite_or_zero(iops.mean()),
                       report::finite_or_zero(iops.stddev()), iops.count());
  }
}

void append_direction(std::string& out, const JobResult& job, Direction d, const GroupDirectionTotals& totals,
                      int version) {
  const DirectionStats& dir = job.dirs[static_cast<std::size_t>(index_of(d))];
  const report::DirectionRates r = report::direction_rates(job, d);
  out += fmt::format(";{};{};{};{}", dir.bytes >> 10, r.bw_kib, static_cast<std::uint64_t>(r.iops), r.runtime_ms);
  append_latency(out, dir.slat);
  append_latency(out, dir.clat);
  append_percentiles(out, dir, job.settings);
  append_latency(out, dir.lat);
  append_bandwidth(out, dir, totals, version);
}

double cpu_percent(double seconds, std::uint64_t runtime_ns) {
  return runtime_ns == 0 ? 0.0 : report::finite_or_zero(100.0 * seconds * 1e9 / static_cast<double>(runtime_ns));
}

std::uint64_t sum_of(const std::array<std::uint64_t, 7>& a) {
  std::uint64_t s = 0;
  for (std::uint64_t v : a) s += v;
  return s;
}

void append_distributions(std::string& out, const JobResult& job) {
  for (double share : report::depth_percentages(job.depth.level, sum_of(job.depth.level))) {
    out += fmt::format(";{:3.1f}%", share);
  }
  // fio's terse format has no nanosecond buckets: they are added to the first microsecond bucket.
  const report::LatencyBuckets buckets = report::latency_buckets(job);
  double below_ns = 0;
  for (double share : buckets.ns) below_ns += share;
  for (std::size_t i = 0; i < buckets.us.size(); ++i) {
    out += fmt::format(";{:3.2f}%", buckets.us[i] + (i == 0 ? below_ns : 0.0));
  }
  for (double share : buckets.ms) out += fmt::format(";{:3.2f}%", share);
}

std::string terse_line(const RunResult& result, const ReportedJob& entry,
                       const PerDirection<GroupDirectionTotals>& totals, int version) {
  const JobResult& job = entry.job;
  std::string out = version == 2 ? fmt::format("2;{};{};{}", job.name, job.groupid, report::reported_error(job))
                                 : fmt::format("{};sluice-{};{};{};{}", version,
                                               result.version.empty() ? SLUICE_VERSION : result.version, job.name,
                                               job.groupid, report::reported_error(job));
  const bool mixed_only = job.settings.unified_rw_reporting && !report::unified_both(job.options);
  if (mixed_only) {
    append_direction(out, report::merge_directions(job), Direction::kRead, report::mixed_totals(totals), version);
  } else {
    append_direction(out, job, Direction::kRead, totals[0], version);
    append_direction(out, job, Direction::kWrite, totals[1], version);
    if (version != 3) append_direction(out, job, Direction::kTrim, totals[2], version);
    if (job.settings.unified_rw_reporting) {
      append_direction(out, report::merge_directions(job), Direction::kRead, report::mixed_totals(totals), version);
    }
  }
  out += fmt::format(";{:f}%;{:f}%;{};{};{}", cpu_percent(job.cpu.user_seconds, entry.summed_runtime_ns),
                     cpu_percent(job.cpu.system_seconds, entry.summed_runtime_ns), job.cpu.context_switches,
                     job.cpu.major_faults, job.cpu.minor_faults);
  append_distributions(out, job);
  if (version >= 3) {
    for (const DiskUtilization& d : result.disks) {
      out += fmt::format(";{};{};{};{};{};{};{};{};{:3.2f}%", d.name, d.read_ios, d.write_ios, d.read_merges,
                         d.write_merges, d.read_ticks_ms, d.write_ticks_ms, d.in_queue_ms,
                         report::finite_or_zero(d.util_percent));
    }
  }
  if (report::continues_on_error(job)) {
    std::uint64_t errors = 0;
    for (const DirectionStats& dir : job.dirs) errors += dir.errors;
    out += fmt::format(";{};{}", errors, report::reported_error(job));
  }
  if (!job.description.empty()) out += (version == 2 ? "\n;" : ";") + job.description;
  return out + "\n";
}

}  // namespace

std::string render_terse(const RunResult& result, int version) {
  std::string out;
  for (const GroupResult& group : result.groups) {
    const PerDirection<GroupDirectionTotals> totals = report::group_totals(group);
    for (const ReportedJob& entry : report::reported_jobs(group, report::SeriesCopy::kBorrow)) {
      out += terse_line(result, entry, totals, version);
    }
    for (const ReportedJob& entry : report::background_jobs(group, report::SeriesCopy::kBorrow)) {
      out += terse_line(result, entry, report::background_totals(entry.job), version);
    }
  }
  return out;
}

}  // namespace sluice
