#include "stats/result.h"

#include <algorithm>
#include <bit>

namespace sluice {

using nlohmann::json;

namespace {

json latency_to_json(const LatencyStat& s) {
  return {{"moments", s.moments.to_json()}, {"histogram", s.histogram.to_json()}};
}

LatencyStat latency_from_json(const json& j) {
  LatencyStat s;
  s.moments = Moments::from_json(j.at("moments"));
  s.histogram = LatencyHistogram::from_json(j.at("histogram"));
  return s;
}

json prios_to_json(const std::vector<PrioLatency>& prios) {
  json out = json::array();
  for (const PrioLatency& p : prios) out.push_back({{"ioprio", p.ioprio}, {"latency", latency_to_json(p.latency)}});
  return out;
}

std::vector<PrioLatency> prios_from_json(const json& j) {
  std::vector<PrioLatency> prios;
  for (const json& p : j) prios.push_back({p.at("ioprio").get<std::uint16_t>(), latency_from_json(p.at("latency"))});
  return prios;
}

// fio's sum_clat_prio_stats: a side without per-priority statistics issued every io with its job's priority,
// so its whole clat (or lat) is that priority's share.
std::vector<PrioLatency> prios_or_whole(const DirectionStats& d, std::uint16_t ioprio, bool use_lat) {
  if (!d.prios.empty()) return d.prios;
  const LatencyStat& whole = use_lat ? d.lat : d.clat;
  if (whole.count() == 0) return {};
  return {PrioLatency{ioprio, whole}};
}

void merge_prios(std::vector<PrioLatency>& into, const std::vector<PrioLatency>& from) {
  for (const PrioLatency& p : from) {
    const auto same =
        std::find_if(into.begin(), into.end(), [&](const PrioLatency& q) { return q.ioprio == p.ioprio; });
    if (same != into.end()) {
      same->latency.merge(p.latency);
    } else {
      into.push_back(p);
    }
  }
}

json direction_to_json(const DirectionStats& d) {
  json out = {{"ios", d.ios},
              {"bytes", d.bytes},
              {"short_ios", d.short_ios},
              {"errors", d.errors},
              {"fatal_ios", d.fatal_ios},
              {"slat", latency_to_json(d.slat)},
              {"clat", latency_to_json(d.clat)},
              {"lat", latency_to_json(d.lat)},
              {"queue_wait", latency_to_json(d.queue_wait)},
              {"iops_samples", d.iops_samples.to_json()},
              {"bw_samples", d.bw_samples.to_json()}};
  if (!d.prios.empty()) out["prios"] = prios_to_json(d.prios);
  return out;
}

DirectionStats direction_from_json(const json& j) {
  DirectionStats d;
  d.ios = j.at("ios").get<std::uint64_t>();
  d.bytes = j.at("bytes").get<std::uint64_t>();
  d.short_ios = j.value("short_ios", std::uint64_t{0});
  d.errors = j.value("errors", std::uint64_t{0});
  d.fatal_ios = j.value("fatal_ios", std::uint64_t{0});
  d.slat = latency_from_json(j.at("slat"));
  d.clat = latency_from_json(j.at("clat"));
  d.lat = latency_from_json(j.at("lat"));
  if (j.contains("queue_wait")) d.queue_wait = latency_from_json(j.at("queue_wait"));
  d.iops_samples = Moments::from_json(j.at("iops_samples"));
  d.bw_samples = Moments::from_json(j.at("bw_samples"));
  if (j.contains("prios")) d.prios = prios_from_json(j.at("prios"));
  return d;
}

json depth_to_json(const IodepthDistribution& d) {
  return {{"level", d.level},
          {"submit", d.submit},
          {"complete", d.complete},
          {"total_submit_calls", d.total_submit_calls},
          {"total_complete_calls", d.total_complete_calls}};
}

IodepthDistribution depth_from_json(const json& j) {
  IodepthDistribution d;
  d.level = j.at("level").get<std::array<std::uint64_t, 7>>();
  d.submit = j.at("submit").get<std::array<std::uint64_t, 7>>();
  d.complete = j.at("complete").get<std::array<std::uint64_t, 7>>();
  d.total_submit_calls = j.at("total_submit_calls").get<std::uint64_t>();
  d.total_complete_calls = j.at("total_complete_calls").get<std::uint64_t>();
  return d;
}

json cpu_to_json(const CpuUsage& c) {
  return {{"user_seconds", c.user_seconds},
          {"system_seconds", c.system_seconds},
          {"context_switches", c.context_switches},
          {"major_faults", c.major_faults},
          {"minor_faults", c.minor_faults}};
}

CpuUsage cpu_from_json(const json& j) {
  CpuUsage c;
  c.user_seconds = j.at("user_seconds").get<double>();
  c.system_seconds = j.at("system_seconds").get<double>();
  c.context_switches = j.at("context_switches").get<std::uint64_t>();
  c.major_faults = j.at("major_faults").get<std::uint64_t>();
  c.minor_faults = j.at("minor_faults").get<std::uint64_t>();
  return c;
}

json settings_to_json(const JobReportSettings& s) {
  return {{"rw", s.rw},
          {"ioengine", s.ioengine},
          {"iodepth", s.iodepth},
          {"bs_min", s.bs_min},
          {"bs_max", s.bs_max},
          {"percentile_list", s.percentile_list},
          {"clat_percentiles", s.clat_percentiles},
          {"lat_percentiles", s.lat_percentiles},
          {"slat_percentiles", s.slat_percentiles},
          {"kb_base", s.kb_base},
          {"time_based", s.time_based},
          {"unified_rw_reporting", s.unified_rw_reporting},
          {"open_loop", s.open_loop},
          {"background", s.background},
          {"stats", s.stats}};
}

JobReportSettings settings_from_json(const json& j) {
  JobReportSettings s;
  s.rw = j.at("rw").get<std::string>();
  s.ioengine = j.at("ioengine").get<std::string>();
  s.iodepth = j.at("iodepth").get<std::uint32_t>();
  s.bs_min = j.at("bs_min").get<PerDirection<std::uint64_t>>();
  s.bs_max = j.at("bs_max").get<PerDirection<std::uint64_t>>();
  s.percentile_list = j.at("percentile_list").get<std::vector<double>>();
  s.clat_percentiles = j.at("clat_percentiles").get<bool>();
  s.lat_percentiles = j.at("lat_percentiles").get<bool>();
  s.slat_percentiles = j.at("slat_percentiles").get<bool>();
  s.kb_base = j.at("kb_base").get<std::uint32_t>();
  s.time_based = j.at("time_based").get<bool>();
  s.unified_rw_reporting = j.value("unified_rw_reporting", false);
  s.open_loop = j.value("open_loop", false);
  s.background = j.value("background", false);
  s.stats = j.value("stats", true);
  return s;
}

// Earliest of two start times, where 0 means "not set".
std::uint64_t min_set(std::uint64_t a, std::uint64_t b) noexcept {
  if (a == 0) return b;
  if (b == 0) return a;
  return std::min(a, b);
}

}  // namespace

void DirectionStats::merge(const DirectionStats& other) {
  ios += other.ios;
  bytes += other.bytes;
  short_ios += other.short_ios;
  errors += other.errors;
  fatal_ios += other.fatal_ios;
  slat.merge(other.slat);
  clat.merge(other.clat);
  lat.merge(other.lat);
  queue_wait.merge(other.queue_wait);
  iops_samples.merge(other.iops_samples);
  bw_samples.merge(other.bw_samples);
  merge_prios(prios, other.prios);
}

void merge_direction(DirectionStats& into, std::uint16_t into_ioprio, const DirectionStats& from,
                     std::uint16_t from_ioprio, bool use_lat) {
  if (!into.prios.empty() || !from.prios.empty() || into_ioprio != from_ioprio) {
    into.prios = prios_or_whole(into, into_ioprio, use_lat);
    if (from.prios.empty()) merge_prios(into.prios, prios_or_whole(from, from_ioprio, use_lat));
  }
  into.merge(from);
}

void SyncStats::merge(const SyncStats& other) {
  ios += other.ios;
  lat.merge(other.lat);
}

void IodepthDistribution::merge(const IodepthDistribution& other) {
  for (std::size_t i = 0; i < level.size(); ++i) {
    level[i] += other.level[i];
    submit[i] += other.submit[i];
    complete[i] += other.complete[i];
  }
  total_submit_calls += other.total_submit_calls;
  total_complete_calls += other.total_complete_calls;
}

void CpuUsage::merge(const CpuUsage& other) {
  user_seconds += other.user_seconds;
  system_seconds += other.system_seconds;
  context_switches += other.context_switches;
  major_faults += other.major_faults;
  minor_faults += other.minor_faults;
}

std::uint64_t JobResult::total_ios() const noexcept {
  std::uint64_t n = 0;
  for (const auto& d : dirs) n += d.ios;
  return n;
}

// Name, description, jobnum, groupid, settings and options stay this job's. start_ns is the earliest set
// start (0 counts as unset), end_ns the latest end; the first non-zero error wins.
void JobResult::merge(const JobResult& other) {
  for (int d = 0; d < kNumDirections; ++d) {
    merge_direction(dirs[d], ioprio, other.dirs[d], other.ioprio, settings.lat_percentiles);
  }
  sync.merge(other.sync);
  depth.merge(other.depth);
  cpu.merge(other.cpu);
  series.merge(other.series);
  merged_jobs += other.merged_jobs;
  start_ns = min_set(start_ns, other.start_ns);
  end_ns = std::max(end_ns, other.end_ns);
  runtime_ns = std::max(runtime_ns, other.runtime_ns);
  interrupted = interrupted || other.interrupted;
  stopped_by_max_latency = stopped_by_max_latency || other.stopped_by_max_latency;
  filled_up = filled_up || other.filled_up;
  rmw_transactions += other.rmw_transactions;
  verified_ios += other.verified_ios;
  verify_failures += other.verify_failures;
  counts_zone_resets = counts_zone_resets || other.counts_zone_resets;
  zone_resets += other.zone_resets;
  if (!other.block_infos.empty()) block_infos = other.block_infos;  // fio: the last job's
  if (act_slices.size() < other.act_slices.size()) act_slices.resize(other.act_slices.size());
  for (std::size_t s = 0; s < other.act_slices.size(); ++s) {
    for (std::size_t i = 0; i < act_slices[s].size(); ++i) act_slices[s][i] += other.act_slices[s][i];
  }
  if (!other.latency_target.is_null()) latency_target = other.latency_target;  // fio: the last job's
  if (error == 0 && other.error != 0) {
    error = other.error;
    error_message = other.error_message;
  }
}

json JobResult::to_json() const {
  json directions = json::object();
  for (Direction d : kAllDirections) directions[std::string(direction_name(d))] = direction_to_json(dirs[index_of(d)]);
  return {{"name", name},
          {"description", description},
          {"jobnum", jobnum},
          {"groupid", groupid},
          {"error", error},
          {"error_message", error_message},
          {"merged_jobs", merged_jobs},
          {"ioprio", ioprio},
          {"directions", std::move(directions)},
          {"sync", {{"ios", sync.ios}, {"lat", latency_to_json(sync.lat)}}},
          {"iodepth", depth_to_json(depth)},
          {"cpu", cpu_to_json(cpu)},
          {"series", series.to_json()},
          {"start_ns", start_ns},
          {"end_ns", end_ns},
          {"runtime_ns", runtime_ns},
          {"interrupted", interrupted},
          {"stopped_by_max_latency", stopped_by_max_latency},
          {"filled_up", filled_up},
          {"rmw_transactions", rmw_transactions},
          {"verified_ios", verified_ios},
          {"verify_failures", verify_failures},
          {"counts_zone_resets", counts_zone_resets},
          {"zone_resets", zone_resets},
          {"block_infos", block_infos},
          {"act_slices", act_slices},
          {"steadystate", steadystate},
          {"latency_target", latency_target},
          {"settings", settings_to_json(settings)},
          {"options", options}};
}

JobResult JobResult::from_json(const json& j) {
  JobResult r;
  r.name = j.at("name").get<std::string>();
  r.description = j.value("description", std::string());
  r.jobnum = j.value("jobnum", 0);
  r.groupid = j.value("groupid", 0);
  r.error = j.value("error", 0);
  r.error_message = j.value("error_message", std::string());
  r.merged_jobs = j.value("merged_jobs", std::uint64_t{1});
  r.ioprio = j.value("ioprio", std::uint16_t{0});
  for (Direction d : kAllDirections) {
    r.dirs[index_of(d)] = direction_from_json(j.at("directions").at(std::string(direction_name(d))));
  }
  r.sync.ios = j.at("sync").at("ios").get<std::uint64_t>();
  r.sync.lat = latency_from_json(j.at("sync").at("lat"));
  r.depth = depth_from_json(j.at("iodepth"));
  r.cpu = cpu_from_json(j.at("cpu"));
  r.series = TimeSeries::from_json(j.at("series"));
  r.start_ns = j.at("start_ns").get<std::uint64_t>();
  r.end_ns = j.at("end_ns").get<std::uint64_t>();
  r.runtime_ns = j.at("runtime_ns").get<std::uint64_t>();
  r.interrupted = j.value("interrupted", false);
  r.stopped_by_max_latency = j.value("stopped_by_max_latency", false);
  r.filled_up = j.value("filled_up", false);
  r.rmw_transactions = j.value("rmw_transactions", std::uint64_t{0});
  r.verified_ios = j.value("verified_ios", std::uint64_t{0});
  r.verify_failures = j.value("verify_failures", std::uint64_t{0});
  r.counts_zone_resets = j.value("counts_zone_resets", false);
  r.zone_resets = j.value("zone_resets", std::uint64_t{0});
  r.block_infos = j.value("block_infos", std::vector<std::uint32_t>{});
  r.act_slices = j.value("act_slices", std::vector<std::array<std::uint64_t, 4>>{});
  if (j.contains("steadystate")) r.steadystate = j.at("steadystate");
  if (j.contains("latency_target")) r.latency_target = j.at("latency_target");
  r.settings = settings_from_json(j.at("settings"));
  r.options = j.value("options", std::map<std::string, std::string>{});
  return r;
}

JobResult GroupResult::aggregate() const {
  if (jobs.empty()) {
    JobResult empty;
    empty.groupid = groupid;
    empty.merged_jobs = 0;
    return empty;
  }
  JobResult total = jobs.front();
  for (std::size_t i = 1; i < jobs.size(); ++i) total.merge(jobs[i]);
  total.groupid = groupid;
  return total;
}

}  // namespace sluice
