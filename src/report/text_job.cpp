// One job's section of the normal output, in fio's layout.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "report/report_format.h"
#include "report/sluice_extras.h"
#include "report/text_parts.h"
#include "report/unified.h"
#include "stats/block_lifetimes.h"

namespace sluice::report {
namespace {

// "    clat (usec): min=31, max=38652, avg=262.99, stdev=489.13"
void append_stat_line(std::string& out, std::string_view name, const LatencyStat& stat) {
  const Moments& m = stat.moments;
  if (m.count() == 0) return;
  const auto min_ns = static_cast<std::uint64_t>(finite_or_zero(m.min()));
  const auto max_ns = static_cast<std::uint64_t>(finite_or_zero(m.max()));
  const double stdev = finite_or_zero(m.stddev());
  const LatencyUnit unit = stat_line_unit(min_ns, max_ns, stdev);
  const double div = static_cast<double>(unit.divisor);
  const std::uint64_t min_in_unit = min_ns / unit.divisor;  // whole units, truncated as fio prints them
  const std::uint64_t max_in_unit = max_ns / unit.divisor;
  out += fmt::format("    {} ({}): min={}, max={}, avg={:5.2f}, stdev={:5.2f}\n", name, unit.name,
                     compact_number(static_cast<double>(min_in_unit), 6, 1000, NumUnit::kNone),
                     compact_number(static_cast<double>(max_in_unit), 6, 1000, NumUnit::kNone),
                     finite_or_zero(m.mean()) / div, stdev / div);
}

// "   bw (  KiB/s): ..." and "   iops        : ..." from the per-interval samples.
void append_sample_lines(std::string& out, const DirectionStats& dir, std::uint64_t group_agg_bw_bytes,
                         std::uint32_t kb_base) {
  const Moments& bw = dir.bw_samples;
  if (bw.count() > 0) {
    const double base = kb_base == 1000 ? 1000.0 : 1024.0;
    double scale = base;
    std::string_view unit = kb_base == 1000 ? "kB" : "KiB";
    if (bw.mean() / base > base * base) {
      scale = base * base;
      unit = kb_base == 1000 ? "MB" : "MiB";
    }
    out += fmt::format("   bw ({:>5}/s): min={:5}, max={:5}, per={:3.2f}%, avg={:5.2f}, stdev={:5.2f}, samples={}\n",
                       unit, static_cast<std::uint64_t>(finite_or_zero(bw.min()) / scale),
                       static_cast<std::uint64_t>(finite_or_zero(bw.max()) / scale),
                       percent_of_group(bw.mean(), group_agg_bw_bytes), finite_or_zero(bw.mean()) / scale,
                       finite_or_zero(bw.stddev()) / scale, bw.count());
  }
  const Moments& iops = dir.iops_samples;
  if (iops.count() > 0) {
    out += fmt::format("   iops        : min={:5}, max={:5}, avg={:5.2f}, stdev={:5.2f}, samples={}\n",
                       static_cast<std::uint64_t>(finite_or_zero(iops.min())),
                       static_cast<std::uint64_t>(finite_or_zero(iops.max())), finite_or_zero(iops.mean()),
                       finite_or_zero(iops.stddev()), iops.count());
  }
}

// block_error_percentiles: fio's "block lifetime percentiles" lines (entries wrapped at 75 columns) and the
// blocks per state.
void append_block_lifetimes(std::string& out, const JobResult& job) {
  if (job.block_infos.empty()) return;
  const BlockLifetimeSummary summary = summarize_block_lifetimes(job.block_infos, job.settings.percentile_list);
  out += "  block lifetime percentiles :\n   |";
  std::size_t column = 0;
  for (std::size_t i = 0; i < summary.percentiles.size(); ++i) {
    const auto& [percentile, trims] = summary.percentiles[i];
    const std::string entry =
        fmt::format(" {:3.2f}th={}{}", percentile, trims, i + 1 == summary.percentiles.size() ? '\n' : ',');
    if (column + entry.size() > 75) {
      out += "\n   |";
      column = 0;
    }
    out += entry;
    column += entry.size();
  }
  if (summary.percentiles.empty()) out += "\n";
  out += "        states               :";
  for (std::size_t s = 0; s < kBlockStates; ++s) {
    out += fmt::format(" {}={}{}", block_state_name(static_cast<BlockState>(s)), summary.states[s],
                       s + 1 == kBlockStates ? '\n' : ',');
  }
}

void append_text_direction(std::string& out, const JobResult& job, Direction d, const GroupDirectionTotals& totals,
                           std::string_view label) {
  const DirectionRates r = direction_rates(job, d);
  if (r.runtime_ns == 0) return;
  const DirectionStats& dir = job.dirs[static_cast<std::size_t>(index_of(d))];
  const JobReportSettings& s = job.settings;
  const int base = s.kb_base == 1000 ? 1000 : 1024;
  const int alt_base = base == 1000 ? 1024 : 1000;
  const auto bw = static_cast<double>(r.bw_bytes);
  const int digits = s.significant_figures;
  const NumUnit rate_unit = s.bandwidth_in_bits ? NumUnit::kBits : NumUnit::kBytes;
  // zonemode=zbd: "; N zone resets" ends each direction's line (fio 3.36+; 3.33 prints it on every write line).
  const std::string zone_resets = job.counts_zone_resets ? fmt::format("; {} zone resets", job.zone_resets) : "";
  out += fmt::format(
      "  {}: IOPS={}, BW={}/s ({}/s)({}/{}msec){}\n", label, compact_number(r.iops, digits, 1000, NumUnit::kNone),
      compact_number(bw, digits, base, rate_unit), compact_number(bw, digits, alt_base, rate_unit),
      compact_number(static_cast<double>(r.io_bytes), digits, base, NumUnit::kBytes), r.runtime_ms, zone_resets);
  append_stat_line(out, "slat", dir.slat);
  append_stat_line(out, "clat", dir.clat);
  append_stat_line(out, " lat", dir.lat);
  if (s.open_loop) append_stat_line(out, "queue_wait", dir.queue_wait);  // lat runs from the scheduled arrival
  // fio: the per-priority lines only when two or more priorities had ios.
  const bool split = prios_with_samples(dir) >= 2;
  const std::string_view prio_kind = s.lat_percentiles ? "lat" : "clat";
  if (split) {
    for (const PrioLatency& p : dir.prios) {
      append_stat_line(out, fmt::format("{} prio {}/{}", prio_kind, p.ioprio >> 13, p.ioprio & 7), p.latency);
    }
  }
  if (s.slat_percentiles) append_percentile_table(out, dir.slat.histogram, s.percentile_list, "slat");
  if (s.clat_percentiles) append_percentile_table(out, dir.clat.histogram, s.percentile_list, "clat");
  if (s.lat_percentiles) append_percentile_table(out, dir.lat.histogram, s.percentile_list, "lat");
  if (split && (s.clat_percentiles || s.lat_percentiles)) {
    const double all = static_cast<double>((s.lat_percentiles ? dir.lat : dir.clat).count());
    for (const PrioLatency& p : dir.prios) {
      if (p.latency.count() == 0) continue;
      append_percentile_table(out, p.latency.histogram, s.percentile_list,
                              fmt::format("{} prio {}/{} ({:.2f}% of IOs)", prio_kind, p.ioprio >> 13, p.ioprio & 7,
                                          100.0 * static_cast<double>(p.latency.count()) / all));
    }
  }
  append_sample_lines(out, dir, totals.agg_bw_bytes, s.kb_base);
}

template <std::size_t N>
void append_bucket_lines(std::string& out, std::string_view unit, const std::array<std::string_view, N>& labels,
                         const std::array<double, N>& shares) {
  int on_line = 0;
  for (std::size_t i = 0; i < N; ++i) {
    if (shares[i] <= 0.0) continue;
    if (on_line == 0)
      out += fmt::format("  lat ({})   : ", unit);
    else
      out += ", ";
    out += fmt::format("{}={:3.2f}%", labels[i], shares[i]);
    if (++on_line == 5) {
      out += "\n";
      on_line = 0;
    }
  }
  if (on_line != 0) out += "\n";
}

template <std::size_t N>
std::string depth_line(const std::array<std::string_view, N>& labels, const std::array<double, N>& shares) {
  std::string line;
  for (std::size_t i = 0; i < N; ++i) {
    if (i) line += ", ";
    line += fmt::format("{}={:3.1f}%", labels[i], shares[i]);
  }
  return line;
}

std::uint64_t text_sum_of(const std::array<std::uint64_t, 7>& a) {
  std::uint64_t s = 0;
  for (std::uint64_t v : a) s += v;
  return s;
}

void append_depths(std::string& out, const JobResult& job) {
  const IodepthDistribution& depth = job.depth;
  const std::uint64_t submit_total = depth.total_submit_calls ? depth.total_submit_calls : text_sum_of(depth.submit);
  const std::uint64_t complete_total =
      depth.total_complete_calls ? depth.total_complete_calls : text_sum_of(depth.complete);
  out += "  IO depths    : " + depth_line(kDepthLevelLabels, depth_percentages(depth.level, text_sum_of(depth.level))) +
         "\n";
  out += "     submit    : " + depth_line(kDepthBatchLabels, depth_percentages(depth.submit, submit_total)) + "\n";
  out += "     complete  : " + depth_line(kDepthBatchLabels, depth_percentages(depth.complete, complete_total)) + "\n";
  const auto& dirs = job.dirs;
  out += fmt::format("     issued rwts: total={},{},{},{} short={},{},{},0 dropped=0,0,0,0\n", dirs[0].ios, dirs[1].ios,
                     dirs[2].ios, job.sync.ios, dirs[0].short_ios, dirs[1].short_ios, dirs[2].short_ios);
  out += fmt::format("     latency   : target=0, window=0, percentile=100.00%, depth={}\n", job.settings.iodepth);
}

// Decimals that show every entry of the percentile list exactly (2 for fio's default list, up to 6):
// "99.999th", not "100.00th".
int percentile_decimals(const std::vector<double>& list) {
  int decimals = 2;
  for (double p : list) {
    while (decimals < 6 && std::fabs(p * std::pow(10.0, decimals) - std::round(p * std::pow(10.0, decimals))) > 1e-6) {
      ++decimals;
    }
  }
  return decimals;
}

double text_cpu_percent(double seconds, std::uint64_t runtime_ns) {
  if (runtime_ns == 0) return 0.0;
  return finite_or_zero(100.0 * seconds * 1e9 / static_cast<double>(runtime_ns));
}

// rw=randrmw (sluice extension): "  rmw: transactions=1200, transactions/s=400.0"
void append_rmw_line(std::string& out, const JobResult& job) {
  if (job.settings.rw != "randrmw") return;
  out += fmt::format("  rmw: transactions={}, transactions/s={:.1f} (read then write of the same block)\n",
                     job.rmw_transactions, rmw_transactions_per_second(job));
}

}  // namespace

void append_percentile_table(std::string& out, const LatencyHistogram& h, const std::vector<double>& list,
                             std::string_view name) {
  if (h.total() == 0 || list.empty()) return;
  const std::vector<std::uint64_t> values = h.percentiles(list);
  const auto [min_it, max_it] = std::minmax_element(values.begin(), values.end());
  const LatencyUnit unit = percentile_table_unit(*min_it, *max_it);
  const auto scaled = [&](std::uint64_t v) { return (v + unit.divisor - 1) / unit.divisor; };
  const std::size_t width = std::max<std::size_t>(5, std::to_string(scaled(*max_it)).size());
  const int decimals = percentile_decimals(list);
  out += fmt::format("    {} percentiles ({}):\n", name, unit.name);
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i % 4 == 0) out += "     |";
    const bool last = i + 1 == values.size();
    out += fmt::format(" {:{}.{}f}th=[{:>{}}]{}", list[i], decimals + 3, decimals, scaled(values[i]), width,
                       last ? "" : ",");
    if (last || i % 4 == 3) out += "\n";
  }
}

// fio's "steadystate  : attained=yes, bw=4694MiB/s (4807MB/s), iops=1202k, iops mean dev=0.000%"; with
// ss=lat|lat_slope fio 3.42 adds ", lat=52nsec" after iops (its mean in nanoseconds: fio's unit conversion
// there never triggers) and names the criterion "lat".
void append_steadystate(std::string& out, const JobResult& job) {
  const nlohmann::json& ss = job.steadystate;
  if (!ss.is_object() || !ss.contains("data")) return;
  const std::string name = ss.value("ss", std::string());
  const std::string criterion = ss.value("criterion", std::string());
  const bool percent = !criterion.empty() && criterion.back() == '%';
  const double value = criterion.empty() ? 0.0 : std::strtod(criterion.c_str(), nullptr);
  const nlohmann::json& data = ss.at("data");
  const auto bw = static_cast<double>(data.value("bw_mean", std::uint64_t{0}));
  const auto iops = static_cast<double>(data.value("iops_mean", std::uint64_t{0}));
  const int digits = job.settings.significant_figures;
  const NumUnit rate_unit = job.settings.bandwidth_in_bits ? NumUnit::kBits : NumUnit::kBytes;
  const bool lat = name.rfind("lat", 0) == 0;
  const char* measure = name.rfind("iops", 0) == 0 ? "iops" : (lat ? "lat" : "bw");
  std::string lat_text;
  if (lat) {
    const auto lat_mean = static_cast<double>(data.value("lat_mean", std::uint64_t{0}));
    lat_text = ", lat=" + compact_number(lat_mean, digits, 1000, NumUnit::kNone) + "nsec";
  }
  out += fmt::format("  steadystate  : attained={}, bw={}/s ({}/s), iops={}{}, {}{}={:.3f}{}\n",
                     ss.value("attained", 0) ? "yes" : "no", compact_number(bw, digits, 1024, rate_unit),
                     compact_number(bw, digits, 1000, rate_unit), compact_number(iops, digits, 1000, NumUnit::kNone),
                     lat_text, measure, name.find("_slope") != std::string::npos ? " slope" : " mean dev", value,
                     percent ? "%" : "");
}

void append_job_section(std::string& out, const ReportedJob& entry, const PerDirection<GroupDirectionTotals>& totals) {
  const JobResult& job = entry.job;
  out += fmt::format("{}: (groupid={}, jobs={}): err={:2}", job.name, job.groupid, entry.jobs, job.error);
  if (job.error != 0 && !job.error_message.empty()) out += " (" + job.error_message + ")";
  if (job.interrupted) out += " (interrupted: partial results)";
  out += "\n";
  if (job.error == 0 && !job.error_message.empty()) {  // the first failure continue_on_error let pass
    std::uint64_t errors = 0;
    for (const DirectionStats& dir : job.dirs) errors += dir.errors;
    out += fmt::format("  errors       : {} ignored (continue_on_error); first: {}\n", errors, job.error_message);
  }
  if (!job.description.empty()) out += "  Description  : [" + job.description + "]\n";
  const bool unified = job.settings.unified_rw_reporting;
  if (!unified || unified_both(job.options)) {
    for (Direction d : kAllDirections) {
      append_text_direction(out, job, d, totals[static_cast<std::size_t>(index_of(d))], direction_name(d));
    }
  }
  if (unified) append_text_direction(out, merge_directions(job), Direction::kRead, mixed_totals(totals), "mixed");
  append_rmw_line(out, job);
  const LatencyBuckets buckets = latency_buckets(job);
  append_bucket_lines(out, "nsec", kLatencyLabels, buckets.ns);
  append_bucket_lines(out, "usec", kLatencyLabels, buckets.us);
  append_bucket_lines(out, "msec", kLatencyMsLabels, buckets.ms);
  if (job.sync.lat.count() > 0) {
    out += "  fsync/fdatasync/sync_file_range:\n";
    append_stat_line(out, "sync", job.sync.lat);
    append_percentile_table(out, job.sync.lat.histogram, job.settings.percentile_list, "sync");
  }
  out += fmt::format("  cpu          : usr={:.2f}%, sys={:.2f}%, ctx={}, majf={}, minf={}\n",
                     text_cpu_percent(job.cpu.user_seconds, entry.summed_runtime_ns),
                     text_cpu_percent(job.cpu.system_seconds, entry.summed_runtime_ns), job.cpu.context_switches,
                     job.cpu.major_faults, job.cpu.minor_faults);
  append_depths(out, job);
  if (job.latency_target.is_object()) {  // fio's line, after the depths
    const nlohmann::json& lt = job.latency_target;
    out += fmt::format("     latency   : target={}, window={}, percentile={:.2f}%, depth={}\n",
                       lt.value("latency_target", std::uint64_t{0}), lt.value("latency_window", std::uint64_t{0}),
                       lt.value("latency_percentile", 0.0), lt.value("latency_depth", std::uint64_t{0}));
  }
  append_block_lifetimes(out, job);
  append_steadystate(out, job);
}

}  // namespace sluice::report
