// sluice's results as fio 3.33's thread_stat and group_run_stats.
#include "fionet/thread_stat.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "fionet/bytes.h"
#include "report/unified.h"

namespace sluice::fionet {
namespace {

constexpr std::uint64_t kNotSet = std::numeric_limits<std::uint64_t>::max();  // fio's ~0UL of an idle direction

void put_io_stat(std::uint8_t* p, std::size_t off, const Moments& m, double scale) {
  if (m.count() == 0) return;
  put_u64(p, off + 0, static_cast<std::uint64_t>(m.max() * scale));
  put_u64(p, off + 8, static_cast<std::uint64_t>(m.min() * scale));
  put_u64(p, off + 16, m.count());
  put_f64(p, off + 24, m.mean() * scale);
  // fio keeps S, the sum of squared differences from the mean, and divides it by n - 1 for the deviation.
  put_f64(p, off + 24 + ts::kFp64, m.variance() * scale * scale * static_cast<double>(m.count() - 1));
}

// Adds a histogram's counts into fio's buckets at `off` (an array of kPlatBuckets u64).
void put_plat(std::uint8_t* p, std::size_t off, const LatencyHistogram& h) {
  if (h.total() == 0) return;
  for (int b = 0; b < LatencyHistogram::kNumBuckets; ++b) {
    const std::uint64_t c = h.count_at(b);
    if (c == 0) continue;
    const std::size_t at = off + 8 * fio_plat_index(LatencyHistogram::bucket_low(b));
    put_u64(p, at, get_u64(p, at) + c);
  }
}

// fio's latency ranges: index i holds [label(i-1), label(i)) of 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000.
std::size_t range_index(std::uint64_t v) noexcept {
  static constexpr std::uint64_t kLabels[] = {2, 4, 10, 20, 50, 100, 250, 500, 750, 1000};
  std::size_t i = 0;
  while (i < std::size(kLabels) && v >= kLabels[i]) ++i;
  return std::min<std::size_t>(i, 9);
}

void put_latency_ranges(std::uint8_t* p, const JobResult& job) {
  for (const DirectionStats& dir : job.dirs) {
    const LatencyHistogram& h = dir.clat.count() ? dir.clat.histogram : dir.lat.histogram;
    if (h.total() == 0) continue;
    for (int b = 0; b < LatencyHistogram::kNumBuckets; ++b) {
      const std::uint64_t c = h.count_at(b);
      if (c == 0) continue;
      const std::uint64_t v = LatencyHistogram::bucket_value(b);
      std::size_t at = 0;
      if (v < 1000) {
        at = ts::kIoULatN + 8 * range_index(v);
      } else if (v < 1'000'000) {
        at = ts::kIoULatU + 8 * range_index(v / 1000);
      } else {
        const std::uint64_t ms = v / 1'000'000;
        at = ts::kIoULatM + 8 * (ms >= 2000 ? 11 : ms >= 1000 ? 10 : range_index(ms));
      }
      put_u64(p, at, get_u64(p, at) + c);
    }
  }
}

std::uint32_t unified_of(const JobResult& job) {
  if (!job.settings.unified_rw_reporting) return 0;
  return report::unified_both(job.options) ? 2 : 1;
}

// fio prints percentiles with as many decimals as the longest of its list has (99.95: 2).
std::uint64_t percentile_decimals(const std::vector<double>& list) {
  std::uint64_t most = 0;
  for (double p : list) {
    std::uint64_t digits = 0;
    double scaled = p;
    while (digits < 6 && std::fabs(scaled - std::round(scaled)) > 1e-9) {
      scaled *= 10;
      ++digits;
    }
    most = std::max(most, digits);
  }
  return most;
}

// fio's unit_base once resolved (lib/num2str.h): N2S_BYTEPERSEC 4, N2S_BITPERSEC 5.
std::uint32_t unit_base_of(const JobReportSettings& s) { return s.bandwidth_in_bits ? 5 : 4; }

std::uint64_t ms_of(double seconds) { return static_cast<std::uint64_t>(std::llround(seconds * 1000.0)); }

}  // namespace

std::size_t fio_plat_index(std::uint64_t ns) noexcept {
  constexpr int kBits = 6;
  const int msb = ns == 0 ? 0 : 63 - std::countl_zero(ns);
  if (msb <= kBits) return static_cast<std::size_t>(ns);
  const int error_bits = msb - kBits;
  const std::size_t base = static_cast<std::size_t>(error_bits + 1) << kBits;
  const std::size_t offset = static_cast<std::size_t>((ns >> error_bits) & 63);
  return std::min(base + offset, ts::kPlatBuckets - 1);
}

std::vector<std::uint8_t> encode_thread_stat(const report::ReportedJob& entry,
                                             const PerDirection<report::GroupDirectionTotals>& totals,
                                             const WireIdentity& identity) {
  std::vector<std::uint8_t> out(ts::kTsPayloadBytes, 0);
  std::uint8_t* p = out.data();
  const JobResult& job = entry.job;
  const JobReportSettings& s = job.settings;
  put_text(p, ts::kName, 128, job.name);
  put_text(p, ts::kVerror, 128, job.error_message);
  put_u32(p, ts::kError, static_cast<std::uint32_t>(report::reported_error(job)));
  put_u32(p, ts::kThreadNumber, identity.thread_number);
  put_u32(p, ts::kGroupId, static_cast<std::uint32_t>(job.groupid));
  put_u32(p, ts::kPid, identity.pid);
  put_text(p, ts::kDescription, 256, job.description);
  put_u32(p, ts::kMembers, static_cast<std::uint32_t>(entry.jobs));
  put_u32(p, ts::kUnifiedRwRep, unified_of(job));

  put_io_stat(p, ts::kSyncStat, job.sync.lat.moments, 1.0);
  put_plat(p, ts::kIoUSyncPlat, job.sync.lat.histogram);
  std::uint64_t submitted = 0;
  for (std::size_t d = 0; d < ts::kDirs; ++d) {
    const DirectionStats& dir = job.dirs[d];
    put_io_stat(p, ts::kClatStat + d * ts::kIoStat, dir.clat.moments, 1.0);
    put_io_stat(p, ts::kSlatStat + d * ts::kIoStat, dir.slat.moments, 1.0);
    put_io_stat(p, ts::kLatStat + d * ts::kIoStat, dir.lat.moments, 1.0);
    put_io_stat(p, ts::kBwStat + d * ts::kIoStat, dir.bw_samples, 1.0 / 1024.0);
    put_io_stat(p, ts::kIopsStat + d * ts::kIoStat, dir.iops_samples, 1.0);
    put_plat(p, ts::kIoUPlat + (0 * ts::kDirs + d) * ts::kPlatBuckets * 8, dir.slat.histogram);
    put_plat(p, ts::kIoUPlat + (1 * ts::kDirs + d) * ts::kPlatBuckets * 8, dir.clat.histogram);
    put_plat(p, ts::kIoUPlat + (2 * ts::kDirs + d) * ts::kPlatBuckets * 8, dir.lat.histogram);
    const std::uint64_t issued = dir.ios + dir.errors + dir.fatal_ios;
    submitted += issued;
    put_u64(p, ts::kTotalIoU + d * 8, issued);
    put_u64(p, ts::kShortIoU + d * 8, dir.short_ios);
    put_u64(p, ts::kIoBytes + d * 8, dir.bytes);
    const report::DirectionRates r = report::direction_rates(job, kAllDirections[d]);
    // fio leaves out a direction whose runtime is 0 ms; one that did I/O ran at least that long.
    put_u64(p, ts::kRuntime + d * 8, issued ? std::max<std::uint64_t>(r.runtime_ms, 1) : 0);
  }
  put_u64(p, ts::kTotalIoU + 3 * 8, job.sync.ios);

  put_u64(p, ts::kUsrTime, ms_of(job.cpu.user_seconds));
  put_u64(p, ts::kSysTime, ms_of(job.cpu.system_seconds));
  put_u64(p, ts::kCtx, job.cpu.context_switches);
  put_u64(p, ts::kMinf, job.cpu.minor_faults);
  put_u64(p, ts::kMajf, job.cpu.major_faults);
  put_u32(p, ts::kClatPercentiles, s.clat_percentiles ? 1 : 0);
  put_u32(p, ts::kLatPercentiles, s.lat_percentiles ? 1 : 0);
  put_u32(p, ts::kSlatPercentiles, s.slat_percentiles ? 1 : 0);
  put_u64(p, ts::kPercentilePrecision, percentile_decimals(s.percentile_list));
  for (std::size_t i = 0; i < s.percentile_list.size() && i < ts::kPercentiles; ++i) {
    put_f64(p, ts::kPercentileList + i * ts::kFp64, s.percentile_list[i]);
  }
  for (std::size_t i = 0; i < 7; ++i) {
    put_u64(p, ts::kIoUMap + i * 8, job.depth.level[i]);
    put_u64(p, ts::kIoUSubmit + i * 8, job.depth.submit[i]);
    put_u64(p, ts::kIoUComplete + i * 8, job.depth.complete[i]);
  }
  put_latency_ranges(p, job);
  std::uint64_t submit_calls = job.depth.total_submit_calls, complete_calls = job.depth.total_complete_calls;
  for (std::size_t i = 0; i < 7; ++i) {
    if (!job.depth.total_submit_calls) submit_calls += job.depth.submit[i];
    if (!job.depth.total_complete_calls) complete_calls += job.depth.complete[i];
  }
  put_u64(p, ts::kTotalSubmit, submit_calls ? submit_calls : submitted);
  put_u64(p, ts::kTotalComplete, complete_calls ? complete_calls : submitted);
  put_u64(p, ts::kTotalRunTime, report::ns_to_ms(entry.summed_runtime_ns));

  std::uint64_t errors = 0;
  for (const DirectionStats& dir : job.dirs) errors += dir.errors;
  put_u16(p, ts::kContinueOnError, report::continues_on_error(job) ? 1 : 0);
  put_u32(p, ts::kFirstError, static_cast<std::uint32_t>(report::first_passed_error(job)));
  put_u64(p, ts::kTotalErrCount, errors);
  put_u64(p, ts::kNrZoneResets, job.zone_resets);
  const std::size_t infos = std::min(job.block_infos.size(), ts::kBlockInfos);
  put_u64(p, ts::kNrBlockInfos, infos);
  for (std::size_t i = 0; i < infos; ++i) put_u32(p, ts::kBlockInfo + i * 4, job.block_infos[i]);
  put_u32(p, ts::kKbBase, s.kb_base);
  put_u32(p, ts::kUnitBase, unit_base_of(s));
  put_u32(p, ts::kLatencyDepth, s.iodepth);
  put_f64(p, ts::kLatencyPercentile, 100.0);
  if (job.latency_target.is_object()) {
    put_u32(p, ts::kLatencyDepth, job.latency_target.value("latency_depth", s.iodepth));
    put_u64(p, ts::kLatencyTarget, job.latency_target.value("latency_target", std::uint64_t{0}));
    put_f64(p, ts::kLatencyPercentile, job.latency_target.value("latency_percentile", 100.0));
    put_u64(p, ts::kLatencyWindow, job.latency_target.value("latency_window", std::uint64_t{0}));
  }
  put_u32(p, ts::kSigFigs, static_cast<std::uint32_t>(s.significant_figures));
  put_u32(p, ts::kIoprio, job.ioprio);

  const std::vector<std::uint8_t> group = encode_group_stat(totals, job.groupid, s);
  std::copy(group.begin(), group.end(), out.begin() + static_cast<std::ptrdiff_t>(ts::kThreadStatBytes));
  return out;
}

std::vector<std::uint8_t> encode_group_stat(const PerDirection<report::GroupDirectionTotals>& totals, int groupid,
                                            const JobReportSettings& settings) {
  std::vector<std::uint8_t> out(ts::kGroupStatBytes, 0);
  std::uint8_t* p = out.data();
  for (std::size_t d = 0; d < ts::kDirs; ++d) {
    const report::GroupDirectionTotals& t = totals[d];
    put_u64(p, ts::kGsMaxRun + d * 8, t.active ? std::max<std::uint64_t>(t.max_run_ms, 1) : 0);
    put_u64(p, ts::kGsMinRun + d * 8, t.active ? std::max<std::uint64_t>(t.min_run_ms, 1) : kNotSet);
    put_u64(p, ts::kGsMaxBw + d * 8, t.active ? t.max_bw_bytes : 0);
    put_u64(p, ts::kGsMinBw + d * 8, t.active ? t.min_bw_bytes : kNotSet);
    put_u64(p, ts::kGsIoBytes + d * 8, t.io_bytes);
    put_u64(p, ts::kGsAgg + d * 8, t.agg_bw_bytes);
  }
  put_u32(p, ts::kGsKbBase, settings.kb_base);
  put_u32(p, ts::kGsUnitBase, unit_base_of(settings));
  put_u32(p, ts::kGsSigFigs, static_cast<std::uint32_t>(settings.significant_figures));
  put_u32(p, ts::kGsGroupId, static_cast<std::uint32_t>(groupid));
  put_u32(p, ts::kGsUnifiedRwRep, settings.unified_rw_reporting ? 1 : 0);
  return out;
}

}  // namespace sluice::fionet
