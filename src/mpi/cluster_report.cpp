#include "mpi/cluster_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <set>

#include "compare/environment_diff.h"
#include "mpi/host_shares.h"
#include "report/report_format.h"
#include "report/reporters.h"

namespace sluice::mpi {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

// The completion latency of every direction merged ("lat" where recorded, else "clat").
LatencyStat overall_latency(const JobResult& job) {
  LatencyStat lat;
  LatencyStat clat;
  for (const DirectionStats& d : job.dirs) {
    lat.merge(d.lat);
    clat.merge(d.clat);
  }
  return lat.count() > 0 ? lat : clat;
}

std::string format_rate(double bytes_per_second) {
  return report::compact_number(bytes_per_second, 4, 1024, report::NumUnit::kBytes) + "/s";
}

std::string format_iops(double iops) { return report::compact_number(iops, 4, 1000, report::NumUnit::kNone); }

json environment_doc(const std::string& environment_text) {
  json env = json::object();
  if (!environment_text.empty()) env = json::parse(environment_text, nullptr, false);
  if (env.is_discarded() || !env.is_object()) env = json::object();
  // Each rank's own files end in ".rank<N>" (cluster_run.h): compared as one name, so that only what really
  // differs between the hosts' targets (device, file system, mount) is reported.
  if (env.contains("targets") && env["targets"].is_array()) {
    for (json& target : env["targets"]) {
      if (!target.is_object() || !target.contains("path") || !target["path"].is_string()) continue;
      std::string path = target["path"].get<std::string>();
      const std::size_t at = path.rfind(".rank");
      if (at != std::string::npos && at + 5 < path.size() &&
          path.find_first_not_of("0123456789", at + 5) == std::string::npos) {
        target["path"] = path.substr(0, at) + ".rank<N>";
      }
    }
  }
  return json{{"sluice", {{"environment", env}}}};
}

// What differs between rank 0's environment and `other`'s (the host name aside: hosts differ by name).
// A rank that failed before capturing its environment has none: nothing to compare (not every field "differs").
std::vector<Difference> host_differences(const RankReport& first, const RankReport& other) {
  std::vector<Difference> out;
  if (first.environment.empty() || other.environment.empty()) return out;
  for (Difference& d :
       environment_differences(environment_doc(first.environment), environment_doc(other.environment))) {
    if (d.what != "host") out.push_back(std::move(d));
  }
  return out;
}

ordered_json window_json(const WindowFigures& w) {
  return {{"start_ns", w.start_ns},
          {"end_ns", w.end_ns},
          {"seconds", static_cast<double>(w.span_ns()) / 1e9},
          {"ios", w.ios},
          {"bytes", w.bytes},
          {"iops", w.iops()},
          {"bw_bytes", w.bytes_per_second()}};
}

// fio's job entry of one host: its jobs merged, rendered as fio's JSON renders a job.
ordered_json host_entry(const HostFigures& h, const GroupAggregate& g, bool json_plus) {
  RunResult single;
  GroupResult group;
  group.groupid = g.groupid;
  group.group_reporting = true;
  group.jobs.push_back(h.job);
  single.groups.push_back(std::move(group));
  const ordered_json doc = render_json_ordered(single, json_plus);
  ordered_json entry = doc.at("jobs").empty() ? ordered_json::object() : doc.at("jobs").front();
  entry["hostname"] = h.host;
  entry["port"] = 0;  // MPI carries the run, not a fio server port
  entry["rank"] = h.rank;
  return entry;
}

// --mpi-wearout: what each rank did after the deadline and the cluster's figures over the whole time.
std::string wearout_text(const GroupWearOut& w) {
  std::string out = fmt::format(
      "  Stonewall wear-out: by the deadline the ranks had done {} to {} ios; each then went "
      "on until every job clone had done as many as on the busiest rank:\n",
      w.deadline_min_ios, w.deadline_max_ios);
  for (const HostWearOut& h : w.hosts) {
    out += fmt::format("    {:<20} {:>4}  +{} ios in {:.3f} s\n", h.host, h.rank, h.figures.extra_ios, h.seconds);
  }
  out += fmt::format(
      "  All clients with the wear-out (first start to the last rank's end, {:.3f} s): IOPS={}, BW={}, "
      "{:.0f} ios\n",
      static_cast<double>(w.total.span_ns()) / 1e9, format_iops(w.total.iops()),
      format_rate(w.total.bytes_per_second()), w.total.ios);
  return out;
}

ordered_json wearout_json(const GroupWearOut& w) {
  ordered_json hosts = ordered_json::array();
  for (const HostWearOut& h : w.hosts) {
    hosts.push_back({{"rank", h.rank},
                     {"hostname", h.host},
                     {"deadline_ios", h.figures.deadline_ios},
                     {"extra_ios", h.figures.extra_ios},
                     {"extra_bytes", h.figures.extra_bytes},
                     {"seconds", h.seconds}});
  }
  return {{"deadline_min_ios", w.deadline_min_ios},
          {"deadline_max_ios", w.deadline_max_ios},
          {"total", window_json(w.total)},
          {"hosts", std::move(hosts)}};
}

}  // namespace

std::vector<std::string> timing_warnings(const ClusterRun& run) {
  std::vector<std::string> out;
  for (const GroupAggregate& g : run.groups) {
    const double window = static_cast<double>(g.window.span_ns());
    const double limit = std::max(100e6, 0.01 * window);
    if (static_cast<double>(g.max_start_skew_ns) > limit) {
      out.push_back(
          fmt::format("group {}: the ranks started {} apart (more than {}): they measured different "
                      "loads for that long; compare the all-active figures",
                      g.groupid, format_ns(static_cast<double>(g.max_start_skew_ns)), format_ns(limit)));
    }
    const double interval = static_cast<double>(g.all.series.interval_ns());
    for (const RankReport& r : run.ranks) {
      if (interval > 0 && static_cast<double>(r.clock.uncertainty_ns) > 0.01 * interval) {
        out.push_back(
            fmt::format("rank {} ({}): its clock offset is known to {} only, more than 1% of the {} "
                        "series interval",
                        r.rank, r.host, format_ns(static_cast<double>(r.clock.uncertainty_ns)), format_ns(interval)));
      }
    }
  }
  return out;
}

std::string host_differences_text(const std::vector<RankReport>& ranks) {
  std::string differences;
  for (std::size_t i = 1; i < ranks.size(); ++i) {
    if (ranks[i].environment.empty()) {
      differences += fmt::format("  {} (rank {}): its environment was not captured (it failed first)\n", ranks[i].host,
                                 ranks[i].rank);
    }
    for (const Difference& d : host_differences(ranks.front(), ranks[i])) {
      differences += fmt::format("  {} (rank {}): {}: {} (rank 0: {})\n", ranks[i].host, ranks[i].rank, d.what,
                                 d.new_value, d.old_value);
    }
  }
  return differences.empty() ? "Hosts' environments: no differences from rank 0\n"
                             : "Hosts' environments differ from rank 0:\n" + differences;
}

nlohmann::ordered_json hosts_json(const std::vector<RankReport>& ranks) {
  ordered_json hosts = ordered_json::array();
  for (const RankReport& r : ranks) {
    ordered_json differences = ordered_json::array();
    if (&r != &ranks.front()) {
      for (const Difference& d : host_differences(ranks.front(), r)) {
        differences.push_back({{"what", d.what}, {"value", d.new_value}, {"rank0_value", d.old_value}});
      }
    }
    hosts.push_back(
        {{"rank", r.rank},
         {"hostname", r.host},
         {"clock_offset_ns", r.clock.offset_ns},
         {"clock_uncertainty_ns", r.clock.uncertainty_ns},
         {"failure", r.failure.empty() ? ordered_json(nullptr) : ordered_json(r.failure)},
         {"differences", std::move(differences)},
         {"environment", ordered_json::parse(environment_doc(r.environment)["sluice"]["environment"].dump())}});
  }
  return hosts;
}

std::string render_cluster_text(const ClusterRun& run) {
  std::set<std::string> hosts;
  for (const RankReport& r : run.ranks) hosts.insert(r.host);
  std::string out =
      fmt::format("MPI run: {} ranks on {} host{}\n", run.ranks.size(), hosts.size(), hosts.size() == 1 ? "" : "s");
  for (const std::string& f : run.failures) out += "FAILED: " + f + "\n";
  for (const std::string& w : timing_warnings(run)) out += "warning: " + w + "\n";
  for (const GroupAggregate& g : run.groups) {
    out += fmt::format("\nGroup {}, per host (rates are each host's own, over its own run; never added):\n", g.groupid);
    out += fmt::format("  {:<20} {:>4} {:>9} {:>12} {:>10} {:>10} {:>11} {:>12}\n", "host", "rank", "IOPS", "bandwidth",
                       "lat mean", "lat p99", "start skew", "clock offset");
    for (const HostFigures& h : g.hosts) {
      const LatencyStat lat = overall_latency(h.job);
      const RankReport* r = nullptr;
      for (const RankReport& candidate : run.ranks) {
        if (candidate.rank == h.rank) r = &candidate;
      }
      const std::string offset = r == nullptr
                                     ? "-"
                                     : fmt::format("{}{}±{}", r->clock.offset_ns < 0 ? "-" : "",
                                                   format_ns(static_cast<double>(std::llabs(r->clock.offset_ns))),
                                                   format_ns(static_cast<double>(r->clock.uncertainty_ns)));
      out += fmt::format("  {:<20} {:>4} {:>9} {:>12} {:>10} {:>10} {:>11} {:>12}\n", h.host, h.rank,
                         format_iops(h.own.iops()), format_rate(h.own.bytes_per_second()),
                         format_ns(lat.moments.mean()), format_ns(static_cast<double>(lat.histogram.percentile(99))),
                         format_ns(static_cast<double>(h.start_skew_ns)), offset);
    }
    const LatencyStat lat = overall_latency(g.all);
    out += fmt::format("  All clients, window (first start to last end, {:.3f} s): IOPS={}, BW={}, {:.0f} ios\n",
                       static_cast<double>(g.window.span_ns()) / 1e9, format_iops(g.window.iops()),
                       format_rate(g.window.bytes_per_second()), g.window.ios);
    out += fmt::format("  All clients, all active (last start to first end, {:.3f} s): IOPS={}, BW={}, {:.0f} ios\n",
                       static_cast<double>(g.all_active.span_ns()) / 1e9, format_iops(g.all_active.iops()),
                       format_rate(g.all_active.bytes_per_second()), g.all_active.ios);
    out += fmt::format(
        "  All clients, latency of every io (merged histograms): min={}, mean={}, p50={}, p99={}, "
        "p99.9={}, max={}\n",
        format_ns(lat.moments.min()), format_ns(lat.moments.mean()),
        format_ns(static_cast<double>(lat.histogram.percentile(50))),
        format_ns(static_cast<double>(lat.histogram.percentile(99))),
        format_ns(static_cast<double>(lat.histogram.percentile(99.9))), format_ns(lat.moments.max()));
    out += fmt::format("  Start skew: {} (latest start - earliest start)\n",
                       format_ns(static_cast<double>(g.max_start_skew_ns)));
    const std::size_t index = static_cast<std::size_t>(&g - run.groups.data());
    if (index < run.wearouts.size() && run.wearouts[index]) out += wearout_text(*run.wearouts[index]);
  }
  out += "\n" + host_differences_text(run.ranks);
  out += "\nAll clients (every rank's ios, over the window):\n";
  out += render_normal(run.combined, NormalReportOptions{.show_warnings = true});
  return out;
}

std::string render_cluster_json(const ClusterRun& run, bool json_plus) {
  ordered_json doc = render_json_ordered(run.combined, json_plus);
  ordered_json clients = ordered_json::array();
  ordered_json groups = ordered_json::array();
  for (std::size_t gi = 0; gi < run.groups.size(); ++gi) {
    const GroupAggregate& g = run.groups[gi];
    ordered_json hosts = ordered_json::array();
    for (const HostFigures& h : g.hosts) {
      clients.push_back(host_entry(h, g, json_plus));
      const LatencyStat lat = overall_latency(h.job);
      hosts.push_back({{"rank", h.rank},
                       {"hostname", h.host},
                       {"start_ns", h.start_ns},
                       {"end_ns", h.end_ns},
                       {"start_skew_ns", h.start_skew_ns},
                       {"end_skew_ns", h.end_skew_ns},
                       {"iops", h.own.iops()},
                       {"bw_bytes", h.own.bytes_per_second()},
                       {"lat_mean_ns", lat.moments.mean()},
                       {"lat_p99_ns", lat.histogram.percentile(99)}});
    }
    for (const auto& entry : doc.at("jobs")) {
      if (entry.value("groupid", -1) == g.groupid) clients.push_back(entry);
    }
    ordered_json group = {{"groupid", g.groupid},
                          {"window", window_json(g.window)},
                          {"all_active", window_json(g.all_active)},
                          {"max_start_skew_ns", g.max_start_skew_ns},
                          {"hosts", std::move(hosts)}};
    if (gi < run.wearouts.size() && run.wearouts[gi]) group["wearout"] = wearout_json(*run.wearouts[gi]);
    groups.push_back(std::move(group));
  }
  doc["client_stats"] = std::move(clients);

  ordered_json& sluice = doc["sluice"];
  sluice["hosts"] = hosts_json(run.ranks);
  sluice["mpi"] = {{"ranks", run.ranks.size()},
                   {"groups", std::move(groups)},
                   {"failures", run.failures},
                   {"warnings", timing_warnings(run)}};
  return doc.dump(2) + "\n";
}

}  // namespace sluice::mpi
