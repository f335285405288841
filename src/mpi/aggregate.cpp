#include "mpi/aggregate.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "common/error.h"

namespace sluice::mpi {
namespace {

using nlohmann::json;

double overlap(std::int64_t a, std::int64_t b, std::int64_t from, std::int64_t to) {
  const std::int64_t lo = std::max(a, from);
  const std::int64_t hi = std::min(b, to);
  return hi > lo ? static_cast<double>(hi - lo) : 0.0;
}

std::uint64_t sample_sum(const PerDirection<IntervalSample>& s, bool bytes) {
  std::uint64_t n = 0;
  for (const IntervalSample& d : s) n += bytes ? d.bytes : d.ops;
  return n;
}

std::uint64_t total_bytes(const JobResult& job) {
  std::uint64_t n = 0;
  for (const DirectionStats& d : job.dirs) n += d.bytes;
  return n;
}

}  // namespace

double WindowFigures::iops() const noexcept {
  const std::uint64_t ns = span_ns();
  return ns == 0 ? 0.0 : ios * 1e9 / static_cast<double>(ns);
}

double WindowFigures::bytes_per_second() const noexcept {
  const std::uint64_t ns = span_ns();
  return ns == 0 ? 0.0 : bytes * 1e9 / static_cast<double>(ns);
}

std::string encode_rank_report(const RankReport& report) {
  json groups = json::array();
  for (const GroupResult& g : report.groups) {
    json jobs = json::array();
    for (const JobResult& j : g.jobs) jobs.push_back(j.to_json());
    groups.push_back({{"groupid", g.groupid}, {"group_reporting", g.group_reporting}, {"jobs", std::move(jobs)}});
  }
  json wearout = json::array();
  for (const RankWearOut& w : report.wearout) {
    wearout.push_back({w.deadline_ios, w.extra_ios, w.extra_bytes, w.start_ns, w.end_ns});
  }
  return json{{"rank", report.rank},
              {"host", report.host},
              {"failure", report.failure},
              {"interrupted", report.interrupted},
              {"stop_signal", report.stop_signal},
              {"environment", report.environment},
              {"groups", std::move(groups)},
              {"wearout", std::move(wearout)}}
      .dump();
}

RankReport decode_rank_report(const std::string& text) {
  const json j = json::parse(text);
  RankReport r;
  r.rank = j.at("rank").get<int>();
  r.host = j.at("host").get<std::string>();
  r.failure = j.at("failure").get<std::string>();
  r.interrupted = j.at("interrupted").get<bool>();
  r.stop_signal = j.at("stop_signal").get<int>();
  r.environment = j.at("environment").get<std::string>();
  for (const json& g : j.at("groups")) {
    GroupResult group;
    group.groupid = g.at("groupid").get<int>();
    group.group_reporting = g.at("group_reporting").get<bool>();
    for (const json& job : g.at("jobs")) group.jobs.push_back(JobResult::from_json(job));
    r.groups.push_back(std::move(group));
  }
  for (const json& w : j.at("wearout")) {
    r.wearout.push_back(RankWearOut{w.at(0).get<std::uint64_t>(), w.at(1).get<std::uint64_t>(),
                                    w.at(2).get<std::uint64_t>(), w.at(3).get<std::uint64_t>(),
                                    w.at(4).get<std::uint64_t>()});
  }
  return r;
}

WindowFigures work_within(const JobResult& job, std::int64_t start_ns, std::int64_t from, std::int64_t to) {
  WindowFigures w;
  w.start_ns = from;
  w.end_ns = to;
  if (to <= from) return w;
  const std::int64_t end_ns = start_ns + static_cast<std::int64_t>(job.runtime_ns);
  const TimeSeries& series = job.series;
  if (series.size() == 0 || series.interval_ns() == 0) {
    if (job.runtime_ns == 0) return w;
    const double share = overlap(start_ns, end_ns, from, to) / static_cast<double>(job.runtime_ns);
    w.ios = static_cast<double>(job.total_ios()) * share;
    w.bytes = static_cast<double>(total_bytes(job)) * share;
    return w;
  }
  const auto interval = static_cast<std::int64_t>(series.interval_ns());
  for (std::size_t k = 0; k < series.size(); ++k) {
    const std::int64_t a = start_ns + static_cast<std::int64_t>(k) * interval;
    // The last sample ends with the run (it rarely fills a whole interval).
    const std::int64_t b = k + 1 == series.size() ? std::max(end_ns, a + 1) : a + interval;
    const double share = overlap(a, b, from, to) / static_cast<double>(b - a);
    if (share <= 0) continue;
    w.ios += static_cast<double>(sample_sum(series.at(k), false)) * share;
    w.bytes += static_cast<double>(sample_sum(series.at(k), true)) * share;
  }
  return w;
}

namespace {

// Adds `part` of `sample` (a fraction of its span) to `first` and the rest to `second` (null when nothing
// is left): whole ios, bytes and latency sums, so the totals are kept exactly; a p99 cannot be split, so
// each side takes the largest p99 of the samples that reach it.
void split_sample(const IntervalSample& sample, double part, IntervalSample& first, IntervalSample* second) {
  const auto share = [part](std::uint64_t v) {
    return static_cast<std::uint64_t>(std::llround(static_cast<double>(v) * part));
  };
  const std::uint64_t ops = share(sample.ops), bytes = share(sample.bytes), lat = share(sample.lat_sum_ns);
  first.ops += ops;
  first.bytes += bytes;
  first.lat_sum_ns += lat;
  if (ops > 0) first.lat_p99_ns = std::max(first.lat_p99_ns, sample.lat_p99_ns);
  if (second == nullptr) return;
  second->ops += sample.ops - ops;
  second->bytes += sample.bytes - bytes;
  second->lat_sum_ns += sample.lat_sum_ns - lat;
  if (sample.ops > ops) second->lat_p99_ns = std::max(second->lat_p99_ns, sample.lat_p99_ns);
}

// The All-clients series on rank 0's clock: the bins of a common grid from the earliest start (at the
// coarsest interval of the ranks) each get, of every rank's samples, the share of their span that falls in
// them. Each rank's samples start at its own start, offset-corrected; its last sample ends with its run.
TimeSeries aligned_series(const std::vector<HostFigures>& hosts, std::int64_t origin) {
  std::uint64_t interval = 0;
  for (const HostFigures& h : hosts) interval = std::max(interval, h.job.series.interval_ns());
  if (interval == 0) return TimeSeries{};
  const auto grid = static_cast<std::int64_t>(interval);
  std::vector<PerDirection<IntervalSample>> bins;
  const auto bin = [&bins](std::size_t j) -> PerDirection<IntervalSample>& {
    if (j >= bins.size()) bins.resize(j + 1);
    return bins[j];
  };
  for (const HostFigures& h : hosts) {
    const TimeSeries& series = h.job.series;
    const auto step = static_cast<std::int64_t>(series.interval_ns());
    for (std::size_t k = 0; k < series.size(); ++k) {
      const std::int64_t begin = std::max(origin, h.start_ns + static_cast<std::int64_t>(k) * step);
      const std::int64_t span = k + 1 == series.size() ? std::clamp<std::int64_t>(h.end_ns - begin, 1, step) : step;
      const auto j = static_cast<std::size_t>((begin - origin) / grid);
      const std::int64_t first_end = origin + static_cast<std::int64_t>(j + 1) * grid;
      const double part = std::min(1.0, static_cast<double>(first_end - begin) / static_cast<double>(span));
      for (int d = 0; d < kNumDirections; ++d) {
        const IntervalSample& sample = series.at(k)[d];
        IntervalSample* rest = part < 1.0 ? &bin(j + 1)[d] : nullptr;
        split_sample(sample, part, bin(j)[d], rest);
      }
    }
  }
  TimeSeries out(interval);
  for (const PerDirection<IntervalSample>& b : bins) out.append(b);
  return out;
}

}  // namespace

GroupAggregate aggregate_group(const std::vector<RankReport>& ranks, std::size_t index) {
  GroupAggregate out;
  for (const RankReport& r : ranks) {
    if (index >= r.groups.size() || r.groups[index].jobs.empty()) continue;
    HostFigures h;
    h.rank = r.rank;
    h.host = r.host;
    h.job = r.groups[index].aggregate();
    out.groupid = r.groups[index].groupid;
    h.start_ns = static_cast<std::int64_t>(h.job.start_ns) - r.clock.offset_ns;
    const std::uint64_t span = h.job.end_ns > h.job.start_ns ? h.job.end_ns - h.job.start_ns : h.job.runtime_ns;
    h.end_ns = h.start_ns + static_cast<std::int64_t>(span);
    h.own = work_within(h.job, h.start_ns, h.start_ns, h.end_ns);
    out.hosts.push_back(std::move(h));
  }
  if (out.hosts.empty()) throw UserError("no rank ran group " + std::to_string(index));

  std::int64_t min_start = std::numeric_limits<std::int64_t>::max(),
               max_start = std::numeric_limits<std::int64_t>::min();
  std::int64_t min_end = std::numeric_limits<std::int64_t>::max(), max_end = std::numeric_limits<std::int64_t>::min();
  for (const HostFigures& h : out.hosts) {
    min_start = std::min(min_start, h.start_ns);
    max_start = std::max(max_start, h.start_ns);
    min_end = std::min(min_end, h.end_ns);
    max_end = std::max(max_end, h.end_ns);
  }
  out.window.start_ns = min_start;
  out.window.end_ns = max_end;
  out.all_active.start_ns = max_start;
  out.all_active.end_ns = std::max(min_end, max_start);
  out.max_start_skew_ns = max_start - min_start;

  out.all = out.hosts.front().job;
  for (std::size_t i = 1; i < out.hosts.size(); ++i) out.all.merge(out.hosts[i].job);
  out.all.series = aligned_series(out.hosts, min_start);
  for (HostFigures& h : out.hosts) {
    h.start_skew_ns = h.start_ns - min_start;
    h.end_skew_ns = max_end - h.end_ns;
    out.window.ios += static_cast<double>(h.job.total_ios());
    out.window.bytes += static_cast<double>(total_bytes(h.job));
    const WindowFigures inside = work_within(h.job, h.start_ns, out.all_active.start_ns, out.all_active.end_ns);
    out.all_active.ios += inside.ios;
    out.all_active.bytes += inside.bytes;
  }
  out.all.name = "All clients";
  out.all.start_ns = 0;
  out.all.end_ns = out.window.span_ns();
  out.all.runtime_ns = out.window.span_ns();
  return out;
}

std::optional<GroupWearOut> aggregate_wearout(const std::vector<RankReport>& ranks, std::size_t index,
                                              const GroupAggregate& group) {
  GroupWearOut out;
  out.total.start_ns = group.window.start_ns;
  out.total.end_ns = group.window.end_ns;
  out.total.ios = group.window.ios;
  out.total.bytes = group.window.bytes;
  bool first = true;
  for (const RankReport& r : ranks) {
    if (index >= r.wearout.size()) continue;
    const RankWearOut& w = r.wearout[index];
    HostWearOut h{r.rank, r.host, w, 0.0};
    if (w.end_ns > w.start_ns) {
      h.seconds = static_cast<double>(w.end_ns - w.start_ns) / 1e9;
      out.total.end_ns = std::max(out.total.end_ns, static_cast<std::int64_t>(w.end_ns) - r.clock.offset_ns);
    }
    out.total.ios += static_cast<double>(w.extra_ios);
    out.total.bytes += static_cast<double>(w.extra_bytes);
    out.deadline_min_ios = first ? w.deadline_ios : std::min(out.deadline_min_ios, w.deadline_ios);
    out.deadline_max_ios = std::max(out.deadline_max_ios, w.deadline_ios);
    first = false;
    out.hosts.push_back(std::move(h));
  }
  if (out.hosts.empty()) return std::nullopt;
  return out;
}

}  // namespace sluice::mpi
