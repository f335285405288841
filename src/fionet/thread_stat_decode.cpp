// A thread_stat from the wire as a JobResult.
#include "fionet/thread_stat_decode.h"

#include <nlohmann/json.hpp>

#include "fionet/bytes.h"
#include "fionet/thread_stat.h"

namespace sluice::fionet {
namespace {

// The smallest value of fio's latency bucket `idx` (the inverse of fio_plat_index).
std::uint64_t fio_bucket_low(std::size_t idx) {
  if (idx < 128) return idx;
  const std::size_t error_bits = (idx >> 6) - 1;
  return (std::uint64_t{1} << (error_bits + 6)) + (static_cast<std::uint64_t>(idx % 64) << error_bits);
}

Moments moments_at(const std::uint8_t* p, std::size_t off, double scale) {
  const std::uint64_t n = get_u64(p, off + 16);
  if (n == 0) return Moments{};
  nlohmann::json j = {{"n", n},
                      {"min", static_cast<double>(get_u64(p, off + 8)) * scale},
                      {"max", static_cast<double>(get_u64(p, off + 0)) * scale},
                      {"mean", get_f64(p, off + 24) * scale},
                      {"m2", get_f64(p, off + 24 + ts::kFp64) * scale * scale}};
  return Moments::from_json(j);
}

LatencyStat latency_at(const std::uint8_t* p, std::size_t stat_off, std::size_t plat_off) {
  LatencyStat s;
  s.moments = moments_at(p, stat_off, 1.0);
  if (s.moments.count() == 0) return s;
  for (std::size_t i = 0; i < ts::kPlatBuckets; ++i) {
    const std::uint64_t c = get_u64(p, plat_off + 8 * i);
    if (c) s.histogram.record_n(fio_bucket_low(i), c);
  }
  return s;
}

}  // namespace

std::optional<DecodedStat> decode_thread_stat(const std::vector<std::uint8_t>& payload) {
  if (payload.size() < ts::kThreadStatBytes) return std::nullopt;
  const std::uint8_t* p = payload.data();
  DecodedStat out;
  JobResult& job = out.job;
  job.name = std::string(get_text(p, ts::kName, 128));
  job.error_message = std::string(get_text(p, ts::kVerror, 128));
  job.error = static_cast<int>(get_u32(p, ts::kError));
  out.thread_number = get_u32(p, ts::kThreadNumber);
  job.groupid = static_cast<int>(get_u32(p, ts::kGroupId));
  job.description = std::string(get_text(p, ts::kDescription, 256));
  job.merged_jobs = std::max<std::uint32_t>(get_u32(p, ts::kMembers), 1);
  job.ioprio = static_cast<std::uint16_t>(get_u32(p, ts::kIoprio));
  JobReportSettings& s = job.settings;
  s.unified_rw_reporting = get_u32(p, ts::kUnifiedRwRep) != 0;
  s.clat_percentiles = get_u32(p, ts::kClatPercentiles) != 0;
  s.lat_percentiles = get_u32(p, ts::kLatPercentiles) != 0;
  s.slat_percentiles = get_u32(p, ts::kSlatPercentiles) != 0;
  s.percentile_list.clear();
  for (std::size_t i = 0; i < ts::kPercentiles; ++i) {
    const double v = get_f64(p, ts::kPercentileList + i * ts::kFp64);
    if (v == 0.0) break;
    s.percentile_list.push_back(v);
  }
  s.kb_base = get_u32(p, ts::kKbBase) ? get_u32(p, ts::kKbBase) : 1024;
  s.bandwidth_in_bits = get_u32(p, ts::kUnitBase) == 5;
  s.significant_figures = static_cast<int>(get_u32(p, ts::kSigFigs) ? get_u32(p, ts::kSigFigs) : 4);
  s.iodepth = get_u32(p, ts::kLatencyDepth);

  job.sync.lat = latency_at(p, ts::kSyncStat, ts::kIoUSyncPlat);
  job.sync.ios = get_u64(p, ts::kTotalIoU + 3 * 8);
  std::uint64_t runtime_ms = 0;
  for (std::size_t d = 0; d < ts::kDirs; ++d) {
    DirectionStats& dir = job.dirs[d];
    dir.slat =
        latency_at(p, ts::kSlatStat + d * ts::kIoStat, ts::kIoUPlat + (0 * ts::kDirs + d) * ts::kPlatBuckets * 8);
    dir.clat =
        latency_at(p, ts::kClatStat + d * ts::kIoStat, ts::kIoUPlat + (1 * ts::kDirs + d) * ts::kPlatBuckets * 8);
    dir.lat = latency_at(p, ts::kLatStat + d * ts::kIoStat, ts::kIoUPlat + (2 * ts::kDirs + d) * ts::kPlatBuckets * 8);
    dir.bw_samples = moments_at(p, ts::kBwStat + d * ts::kIoStat, 1024.0);
    dir.iops_samples = moments_at(p, ts::kIopsStat + d * ts::kIoStat, 1.0);
    dir.ios = get_u64(p, ts::kTotalIoU + d * 8);
    dir.short_ios = get_u64(p, ts::kShortIoU + d * 8);
    dir.bytes = get_u64(p, ts::kIoBytes + d * 8);
    runtime_ms = std::max(runtime_ms, get_u64(p, ts::kRuntime + d * 8));
  }
  job.runtime_ns = runtime_ms * 1'000'000;
  job.end_ns = job.runtime_ns;
  out.summed_runtime_ms = get_u64(p, ts::kTotalRunTime);
  job.cpu.user_seconds = static_cast<double>(get_u64(p, ts::kUsrTime)) / 1000.0;
  job.cpu.system_seconds = static_cast<double>(get_u64(p, ts::kSysTime)) / 1000.0;
  job.cpu.context_switches = get_u64(p, ts::kCtx);
  job.cpu.minor_faults = get_u64(p, ts::kMinf);
  job.cpu.major_faults = get_u64(p, ts::kMajf);
  for (std::size_t i = 0; i < 7; ++i) {
    job.depth.level[i] = get_u64(p, ts::kIoUMap + i * 8);
    job.depth.submit[i] = get_u64(p, ts::kIoUSubmit + i * 8);
    job.depth.complete[i] = get_u64(p, ts::kIoUComplete + i * 8);
  }
  job.depth.total_submit_calls = get_u64(p, ts::kTotalSubmit);
  job.depth.total_complete_calls = get_u64(p, ts::kTotalComplete);
  job.zone_resets = get_u64(p, ts::kNrZoneResets);
  return out;
}

std::optional<JobOption> decode_job_option(const std::vector<std::uint8_t>& payload) {
  if (payload.size() < 200) return std::nullopt;
  const std::uint8_t* p = payload.data();
  JobOption o;
  o.global = get_u16(p, 0) != 0;
  o.index = get_u32(p, 4);
  o.name = std::string(get_text(p, 8, 64));
  o.value = std::string(get_text(p, 72, 128));
  return o;
}

}  // namespace sluice::fionet
