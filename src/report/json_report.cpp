// The fio JSON document: header keys, "jobs", "disk_util", and sluice's own "sluice" section.
#include <ctime>
#include <string>

#include "report/json_parts.h"
#include "report/reporters.h"
#include "report/sluice_extras.h"
#include "version.h"

namespace sluice {
namespace {

using ojson = nlohmann::ordered_json;

// ctime()'s layout ("Sun Nov 29 22:58:18 2026") in local time, as fio's "time".
std::string ctime_text(std::uint64_t timestamp_ms) {
  const std::time_t seconds = static_cast<std::time_t>(timestamp_ms / 1000);
  std::tm tm{};
  if (localtime_r(&seconds, &tm) == nullptr) return "";
  char buf[64];
  const std::size_t n = std::strftime(buf, sizeof buf, "%a %b %e %H:%M:%S %Y", &tm);
  return std::string(buf, n);
}

std::string version_of(const RunResult& result) {
  return result.version.empty() ? std::string(SLUICE_VERSION) : result.version;
}

ojson disk_json(const DiskUtilization& d) {
  ojson out = ojson::object();
  out["name"] = d.name;
  out["read_ios"] = d.read_ios;
  out["write_ios"] = d.write_ios;
  out["read_merges"] = d.read_merges;
  out["write_merges"] = d.write_merges;
  out["read_ticks"] = d.read_ticks_ms;
  out["write_ticks"] = d.write_ticks_ms;
  out["in_queue"] = d.in_queue_ms;
  out["util"] = report::json_float(d.util_percent);
  return out;
}

ojson interval_json(const IntervalSample& s, double interval_s) {
  ojson out = ojson::object();
  out["iops"] = report::json_float(static_cast<double>(s.ops) / interval_s);
  out["bw_bytes"] = report::json_float(static_cast<double>(s.bytes) / interval_s);
  out["lat_mean_ns"] = s.ops ? report::json_float(static_cast<double>(s.lat_sum_ns) / static_cast<double>(s.ops)) : 0.0;
  out["lat_p99_ns"] = s.lat_p99_ns;
  return out;
}

// The job's time series: one sample per interval, "t_s" at the interval's end.
ojson series_json(const JobResult& job) {
  const TimeSeries& series = job.series;
  const double interval_s = static_cast<double>(series.interval_ns()) / 1e9;
  const bool any_trim = job.dirs[static_cast<std::size_t>(index_of(Direction::kTrim))].ios > 0;
  ojson samples = ojson::array();
  for (std::size_t i = 0; i < series.size(); ++i) {
    const PerDirection<IntervalSample>& at = series.at(i);
    ojson sample = ojson::object();
    sample["t_s"] = static_cast<double>(i + 1) * interval_s;
    for (Direction d : kAllDirections) {
      if (d == Direction::kTrim && !any_trim) continue;
      sample[std::string(direction_name(d))] =
          interval_s > 0 ? interval_json(at[static_cast<std::size_t>(index_of(d))], interval_s) : ojson::object();
    }
    samples.push_back(std::move(sample));
  }
  ojson out = ojson::object();
  out["interval_ns"] = series.interval_ns();
  out["samples"] = std::move(samples);
  return out;
}

ojson warnings_json(const std::vector<Problem>& warnings) {
  ojson out = ojson::array();
  for (const Problem& w : warnings) {
    ojson item = ojson::object();
    item["option"] = w.option;
    item["message"] = w.message;
    item["where"] = w.where.describe();
    if (!w.code.empty()) item["code"] = w.code;  // methodology lint rules (run/lint.h)
    out.push_back(std::move(item));
  }
  return out;
}

ojson sluice_job_json(const JobResult& job) {
  ojson out = ojson::object();
  out["jobname"] = job.name;
  out["groupid"] = job.groupid;
  out["interrupted"] = job.interrupted;
  out["stopped_by_max_latency"] = job.stopped_by_max_latency;
  out["role"] = job.settings.background ? "background" : "foreground";
  out["open_loop"] = job.settings.open_loop;
  if (job.verified_ios != 0 || job.verify_failures != 0) {
    out["verify"] = ojson{{"verified_ios", job.verified_ios}, {"failures", job.verify_failures}};
  }
  if (job.settings.rw == "randrmw") {
    out["rmw"] = ojson{{"transactions", job.rmw_transactions},
                       {"transactions_per_s", report::json_float(report::rmw_transactions_per_second(job))}};
  }
  out["series"] = series_json(job);
  return out;
}

// fio writes the [global] section's options at the top level; the runner passes them in RunResult::extra.
constexpr const char* kGlobalOptions = "global options";

ojson sluice_json(const RunResult& result, ojson jobs) {
  ojson out = ojson::object();
  out["version"] = version_of(result);
  out["clock_source"] = result.clock_source;
  out["interrupted"] = result.interrupted;
  out["warnings"] = warnings_json(result.warnings);
  out["notes"] = result.notes;
  out["environment"] = ojson::parse(result.environment.dump());
  out["jobs"] = std::move(jobs);
  if (result.extra.is_object()) {
    for (const auto& [key, value] : result.extra.items()) {
      if (key != kGlobalOptions) out[key] = ojson::parse(value.dump());
    }
  }
  return out;
}

}  // namespace

ojson render_json_ordered(const RunResult& result, bool json_plus) {
  ojson doc = ojson::object();
  doc["fio version"] = "sluice-" + version_of(result);
  doc["timestamp"] = result.timestamp_ms / 1000;
  doc["timestamp_ms"] = result.timestamp_ms;
  doc["time"] = ctime_text(result.timestamp_ms);
  ojson jobs = ojson::array();
  ojson sluice_jobs = ojson::array();
  for (const GroupResult& group : result.groups) {
    const PerDirection<report::GroupDirectionTotals> totals = report::group_totals(group);
    for (const report::ReportedJob& entry : report::reported_jobs(group)) {
      jobs.push_back(report::job_json(entry, totals, json_plus));
      sluice_jobs.push_back(sluice_job_json(entry.job));
    }
    // Background jobs follow their group's entries, each with its own totals and a "sluice" marker.
    for (const report::ReportedJob& entry : report::background_jobs(group)) {
      ojson job = report::job_json(entry, report::background_totals(entry.job), json_plus);
      job["sluice"] = ojson{{"role", "background"}};
      jobs.push_back(std::move(job));
      sluice_jobs.push_back(sluice_job_json(entry.job));
    }
  }
  if (result.extra.is_object() && result.extra.contains(kGlobalOptions)) {
    doc[kGlobalOptions] = ojson::parse(result.extra.at(kGlobalOptions).dump());
  }
  doc["jobs"] = std::move(jobs);
  if (!result.disks.empty()) {
    ojson disks = ojson::array();
    for (const DiskUtilization& d : result.disks) disks.push_back(disk_json(d));
    doc["disk_util"] = std::move(disks);
  }
  doc["sluice"] = sluice_json(result, std::move(sluice_jobs));
  return doc;
}

nlohmann::json render_json(const RunResult& result, bool json_plus) {
  return nlohmann::json::parse(render_json_ordered(result, json_plus).dump());
}

std::string render_json_text(const RunResult& result, bool json_plus) {
  return render_json_ordered(result, json_plus).dump(2) + "\n";
}

}  // namespace sluice
