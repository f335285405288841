// One entry of fio's "jobs" array.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "report/json_parts.h"
#include "report/unified.h"
#include "stats/block_lifetimes.h"

namespace sluice::report {
namespace {

using ojson = nlohmann::ordered_json;

std::string percentile_key(double p) { return fmt::format("{:.6f}", json_float(p)); }

// bw_* in KiB/s and iops_* from the per-interval samples; integers where fio writes integers.
void add_sample_stats(ojson& out, const DirectionStats& dir, std::uint64_t group_agg_bw_bytes) {
  const Moments& bw = dir.bw_samples;
  const Moments& iops = dir.iops_samples;
  out["bw_min"] = static_cast<std::uint64_t>(json_float(bw.min()) / 1024.0);
  out["bw_max"] = static_cast<std::uint64_t>(json_float(bw.max()) / 1024.0);
  out["bw_agg"] = bw.count() ? json_float(percent_of_group(bw.mean(), group_agg_bw_bytes)) : 0.0;
  out["bw_mean"] = json_float(bw.mean() / 1024.0);
  out["bw_dev"] = json_float(bw.stddev() / 1024.0);
  out["bw_samples"] = bw.count();
  out["iops_min"] = static_cast<std::uint64_t>(json_float(iops.min()));
  out["iops_max"] = static_cast<std::uint64_t>(json_float(iops.max()));
  out["iops_mean"] = json_float(iops.mean());
  out["iops_stddev"] = json_float(iops.stddev());
  out["iops_samples"] = iops.count();
}

// fio's "prios": per priority that had ios, its class, level and latency (clat_ns, or lat_ns with
// lat_percentiles), percentiles as the direction's.
ojson prios_json(const DirectionStats& dir, const JobReportSettings& s, bool json_plus) {
  ojson out = ojson::array();
  for (const PrioLatency& p : dir.prios) {
    if (p.latency.count() == 0) continue;
    ojson entry = ojson::object();
    entry["prioclass"] = p.ioprio >> 13;
    entry["prio"] = p.ioprio & 7;
    entry[s.lat_percentiles ? "lat_ns" : "clat_ns"] =
        latency_json(p.latency, s.clat_percentiles || s.lat_percentiles, s.percentile_list, json_plus);
    out.push_back(std::move(entry));
  }
  return out;
}

ojson direction_json(const JobResult& job, Direction d, const GroupDirectionTotals& totals, bool json_plus) {
  const DirectionStats& dir = job.dirs[static_cast<std::size_t>(index_of(d))];
  const JobReportSettings& s = job.settings;
  const DirectionRates r = direction_rates(job, d);
  ojson out = ojson::object();
  out["io_bytes"] = dir.bytes;
  out["io_kbytes"] = dir.bytes >> 10;
  out["bw_bytes"] = r.bw_bytes;
  out["bw"] = r.bw_kib;
  out["iops"] = json_float(r.iops);
  out["runtime"] = r.runtime_ms;
  out["total_ios"] = dir.ios + dir.errors + dir.fatal_ios;  // as fio: failed ios were issued ios
  out["short_ios"] = dir.short_ios;
  out["drop_ios"] = std::uint64_t{0};
  out["slat_ns"] = latency_json(dir.slat, s.slat_percentiles, s.percentile_list, json_plus);
  out["clat_ns"] = latency_json(dir.clat, s.clat_percentiles, s.percentile_list, json_plus);
  out["lat_ns"] = latency_json(dir.lat, s.lat_percentiles, s.percentile_list, json_plus);
  if (prios_with_samples(dir) >= 2) out["prios"] = prios_json(dir, s, json_plus);
  // sluice extension, open loop only (fio has no such key; readers of fio's keys are unaffected).
  if (s.open_loop) out["queue_wait_ns"] = latency_json(dir.queue_wait, true, s.percentile_list, json_plus);
  add_sample_stats(out, dir, totals.agg_bw_bytes);
  return out;
}

ojson sync_json(const JobResult& job, bool json_plus) {
  ojson out = ojson::object();
  out["total_ios"] = job.sync.ios;
  out["lat_ns"] = latency_json(job.sync.lat, true, job.settings.percentile_list, json_plus);
  return out;
}

template <std::size_t N, std::size_t M>
ojson labelled(const std::array<std::string_view, N>& labels, const std::array<double, M>& values) {
  static_assert(N == M);
  ojson out = ojson::object();
  for (std::size_t i = 0; i < N; ++i) out[std::string(labels[i])] = json_float(values[i]);
  return out;
}

std::uint64_t json_sum_of(const std::array<std::uint64_t, 7>& a) {
  std::uint64_t s = 0;
  for (std::uint64_t v : a) s += v;
  return s;
}

double json_cpu_percent(double seconds, std::uint64_t runtime_ns) {
  if (runtime_ns == 0) return 0.0;
  return json_float(100.0 * seconds * 1e9 / static_cast<double>(runtime_ns));
}

void add_depth_and_latency(ojson& out, const JobResult& job) {
  const IodepthDistribution& depth = job.depth;
  const std::uint64_t submit_total = depth.total_submit_calls ? depth.total_submit_calls : json_sum_of(depth.submit);
  const std::uint64_t complete_total =
      depth.total_complete_calls ? depth.total_complete_calls : json_sum_of(depth.complete);
  out["iodepth_level"] = labelled(kDepthLevelLabels, depth_percentages(depth.level, json_sum_of(depth.level)));
  out["iodepth_submit"] = labelled(kDepthBatchLabels, depth_percentages(depth.submit, submit_total));
  out["iodepth_complete"] = labelled(kDepthBatchLabels, depth_percentages(depth.complete, complete_total));
  const LatencyBuckets buckets = latency_buckets(job);
  out["latency_ns"] = labelled(kLatencyLabels, buckets.ns);
  out["latency_us"] = labelled(kLatencyLabels, buckets.us);
  out["latency_ms"] = labelled(kLatencyMsLabels, buckets.ms);
  // latency_target is not implemented by this report's input; fio's defaults for a job without it.
  out["latency_depth"] = job.settings.iodepth;
  out["latency_target"] = std::uint64_t{0};
  out["latency_percentile"] = 100.0;
  out["latency_window"] = std::uint64_t{0};
}

// fio's key order for the "steadystate" block (JobResult keeps it as a sorted nlohmann::json); lat_mean and
// lat_ns are fio 3.42's, with ss=lat|lat_slope.
ojson steadystate_json(const nlohmann::json& ss) {
  ojson out = ojson::object();
  for (const char* key : {"ss", "duration", "attained", "criterion", "max_deviation", "slope"}) {
    if (ss.contains(key)) out[key] = ss.at(key);
  }
  if (ss.contains("data")) {
    ojson data = ojson::object();
    for (const char* key : {"bw_mean", "iops_mean", "lat_mean", "lat_ns", "iops", "bw"}) {
      if (ss.at("data").contains(key)) data[key] = ss.at("data").at(key);
    }
    out["data"] = std::move(data);
  }
  return out;
}

ojson options_json(const std::map<std::string, std::string>& options) {
  ojson out = ojson::object();
  for (const auto& [key, value] : options) out[key] = value;
  return out;
}

}  // namespace

ojson latency_json(const LatencyStat& stat, bool with_percentiles, const std::vector<double>& percentile_list,
                   bool json_plus) {
  const Moments& m = stat.moments;
  ojson out = ojson::object();
  out["min"] = static_cast<std::uint64_t>(json_float(m.min()));
  out["max"] = static_cast<std::uint64_t>(json_float(m.max()));
  out["mean"] = json_float(m.mean());
  out["stddev"] = json_float(m.stddev());
  out["N"] = m.count();
  const LatencyHistogram& h = stat.histogram;
  if (!with_percentiles || h.total() == 0) return out;
  ojson percentiles = ojson::object();
  for (double p : percentile_list) percentiles[percentile_key(p)] = h.percentile(p);
  out["percentile"] = std::move(percentiles);
  if (json_plus) {
    ojson bins = ojson::object();
    for (int b = 0; b < LatencyHistogram::kNumBuckets; ++b) {
      if (h.count_at(b) != 0) bins[std::to_string(LatencyHistogram::bucket_value(b))] = h.count_at(b);
    }
    out["bins"] = std::move(bins);
  }
  return out;
}

ojson job_json(const ReportedJob& entry, const PerDirection<GroupDirectionTotals>& totals, bool json_plus) {
  const JobResult& job = entry.job;
  ojson out = ojson::object();
  out["jobname"] = job.name;
  out["groupid"] = job.groupid;
  if (!job.description.empty()) out["desc"] = job.description;
  out["error"] = reported_error(job);
  if (continues_on_error(job)) {  // fio writes these two only when the job passes some errors
    std::uint64_t errors = 0;
    for (const DirectionStats& dir : job.dirs) errors += dir.errors;
    out["total_err"] = errors;
    out["first_error"] = job.error == 0 ? first_passed_error(job) : job.error;
  }
  out["eta"] = 0;
  const std::uint64_t wall_ns = job.end_ns > job.start_ns ? job.end_ns - job.start_ns : job.runtime_ns;
  out["elapsed"] = (wall_ns + 999'999'999ull) / 1'000'000'000ull;
  out["job options"] = options_json(job.options);
  const bool unified = job.settings.unified_rw_reporting;
  if (!unified || unified_both(job.options)) {
    for (Direction d : kAllDirections) {
      out[std::string(direction_name(d))] =
          direction_json(job, d, totals[static_cast<std::size_t>(index_of(d))], json_plus);
    }
    out["sync"] = sync_json(job, json_plus);
  }
  if (unified) out["mixed"] = direction_json(merge_directions(job), Direction::kRead, mixed_totals(totals), json_plus);
  out["job_runtime"] = ns_to_ms(entry.summed_runtime_ns);
  out["usr_cpu"] = json_cpu_percent(job.cpu.user_seconds, entry.summed_runtime_ns);
  out["sys_cpu"] = json_cpu_percent(job.cpu.system_seconds, entry.summed_runtime_ns);
  out["ctx"] = job.cpu.context_switches;
  out["majf"] = job.cpu.major_faults;
  out["minf"] = job.cpu.minor_faults;
  add_depth_and_latency(out, job);
  if (job.latency_target.is_object()) {  // fio's latency_target keys, as fio places them
    const nlohmann::json& lt = job.latency_target;
    out["latency_depth"] = lt.value("latency_depth", std::uint64_t{0});
    out["latency_target"] = lt.value("latency_target", std::uint64_t{0});
    out["latency_percentile"] = json_float(lt.value("latency_percentile", 0.0));
    out["latency_window"] = lt.value("latency_window", std::uint64_t{0});
  }
  if (job.steadystate.is_object()) out["steadystate"] = steadystate_json(job.steadystate);
  if (job.counts_zone_resets) out["zone_resets"] = job.zone_resets;  // fio 3.36+, zonemode=zbd jobs only
  if (!job.block_infos.empty()) {  // block_error_percentiles, as fio: only once a block was used
    const BlockLifetimeSummary summary = summarize_block_lifetimes(job.block_infos, job.settings.percentile_list);
    if (!summary.percentiles.empty()) {
      ojson percentiles = ojson::object();
      for (const auto& [percentile, trims] : summary.percentiles) percentiles[fmt::format("{:f}", percentile)] = trims;
      ojson states = ojson::object();
      for (std::size_t s = 0; s < kBlockStates; ++s) {
        states[std::string(block_state_name(static_cast<BlockState>(s)))] = summary.states[s];
      }
      out["block"] = ojson{{"percentiles", std::move(percentiles)}, {"states", std::move(states)}};
    }
  }
  return out;
}

}  // namespace sluice::report
