#include "report/interval_log.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace sluice {
namespace {

// `now` less `before`, bucket by bucket (a bucket's count never falls between snapshots of one job).
LatencyHistogram difference(const LatencyHistogram& now, const LatencyHistogram& before) {
  LatencyHistogram out;
  for (int b = 0; b < LatencyHistogram::kNumBuckets; ++b) {
    const std::uint64_t n = now.count_at(b) - before.count_at(b);
    if (n != 0) out.record_n(LatencyHistogram::bucket_low(b), n);
  }
  return out;
}

std::string interval_percentile_key(double p) { return fmt::format("p{}", p); }  // p50, p99.9

double per_second_over(std::uint64_t count, std::uint64_t span_ns) {
  return span_ns == 0 ? 0.0 : static_cast<double>(count) * 1e9 / static_cast<double>(span_ns);
}

// Label values escaped as OpenMetrics wants: backslash, double quote and newline.
std::string label_value(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

}  // namespace

std::vector<JobInterval> IntervalTracker::advance(const RunResult& progress) {
  std::vector<JobInterval> out;
  for (std::size_t g = 0; g < progress.groups.size(); ++g) {
    const GroupResult& group = progress.groups[g];
    for (std::size_t j = 0; j < group.jobs.size(); ++j) {
      const JobResult& job = group.jobs[j];
      Previous& before = previous_[{static_cast<int>(g), static_cast<int>(j)}];
      if (job.runtime_ns <= before.runtime_ns) continue;
      JobInterval interval;
      interval.name = job.name;
      interval.groupid = job.groupid;
      interval.jobnum = job.jobnum;
      interval.start_ns = before.runtime_ns;
      interval.end_ns = job.runtime_ns;
      for (Direction d : kAllDirections) {
        const int i = index_of(d);
        const DirectionStats& stats = job.dirs[i];
        interval.dirs[i].ios = stats.ios - before.ios[i];
        interval.dirs[i].bytes = stats.bytes - before.bytes[i];
        interval.dirs[i].lat = difference(stats.lat.histogram, before.lat[i]);
        interval.total_ios[i] = stats.ios;
        interval.total_bytes[i] = stats.bytes;
        before.ios[i] = stats.ios;
        before.bytes[i] = stats.bytes;
        before.lat[i] = stats.lat.histogram;
      }
      before.runtime_ns = job.runtime_ns;
      out.push_back(std::move(interval));
    }
  }
  return out;
}

std::string interval_line(const JobInterval& interval) {
  nlohmann::ordered_json line;
  line["job"] = interval.name;
  line["groupid"] = interval.groupid;
  line["jobnum"] = interval.jobnum;
  line["start_ms"] = interval.start_ns / 1'000'000;
  line["end_ms"] = interval.end_ns / 1'000'000;
  line["start_ns"] = interval.start_ns;
  line["end_ns"] = interval.end_ns;
  const std::uint64_t span = interval.end_ns - interval.start_ns;
  for (Direction d : kAllDirections) {
    const IntervalDirection& dir = interval.dirs[index_of(d)];
    if (interval.total_ios[index_of(d)] == 0) continue;  // a direction the job does not do
    nlohmann::ordered_json& out = line[std::string(direction_name(d))];
    out["ios"] = dir.ios;
    out["bytes"] = dir.bytes;
    out["iops"] = per_second_over(dir.ios, span);
    out["bw_bytes"] = per_second_over(dir.bytes, span);
    nlohmann::ordered_json& lat = out["lat_ns"];
    lat["min"] = dir.lat.total() == 0 ? 0 : dir.lat.percentile(0);
    for (double p : interval_percentiles()) lat[interval_percentile_key(p)] = dir.lat.percentile(p);
    lat["max"] = dir.lat.percentile(100);
  }
  return line.dump();
}

std::string render_openmetrics(const std::vector<JobInterval>& latest) {
  struct Family {
    const char* name;
    const char* type;
    const char* unit;
    const char* help;
  };
  static constexpr Family kFamilies[] = {
      {"sluice_io", "counter", "", "ios completed since the job's measured start"},
      {"sluice_io_bytes", "counter", "bytes", "bytes completed since the job's measured start"},
      {"sluice_interval_iops", "gauge", "", "ios per second in the last interval"},
      {"sluice_interval_bandwidth_bytes", "gauge", "bytes", "bytes per second in the last interval"},
      {"sluice_interval_latency_seconds", "gauge", "seconds",
       "completion latency percentile of the ios of the last interval"},
  };
  std::string out;
  for (const Family& family : kFamilies) {
    out += fmt::format("# TYPE {} {}\n", family.name, family.type);
    if (family.unit[0] != '\0') out += fmt::format("# UNIT {} {}\n", family.name, family.unit);
    out += fmt::format("# HELP {} {}\n", family.name, family.help);
    const std::string family_name = family.name;
    for (const JobInterval& interval : latest) {
      const std::uint64_t span = interval.end_ns - interval.start_ns;
      for (Direction d : kAllDirections) {
        const int i = index_of(d);
        if (interval.total_ios[i] == 0) continue;
        const std::string labels =
            fmt::format(R"(job="{}",jobnum="{}",groupid="{}",direction="{}")", label_value(interval.name),
                        interval.jobnum, interval.groupid, direction_name(d));
        const IntervalDirection& dir = interval.dirs[i];
        if (family_name == "sluice_io") {
          out += fmt::format("sluice_io_total{{{}}} {}\n", labels, interval.total_ios[i]);
        } else if (family_name == "sluice_io_bytes") {
          out += fmt::format("sluice_io_bytes_total{{{}}} {}\n", labels, interval.total_bytes[i]);
        } else if (family_name == "sluice_interval_iops") {
          out += fmt::format("sluice_interval_iops{{{}}} {}\n", labels, per_second_over(dir.ios, span));
        } else if (family_name == "sluice_interval_bandwidth_bytes") {
          out += fmt::format("sluice_interval_bandwidth_bytes{{{}}} {}\n", labels, per_second_over(dir.bytes, span));
        } else {
          for (double p : interval_percentiles()) {
            out += fmt::format("sluice_interval_latency_seconds{{{},percentile=\"{}\"}} {}\n", labels, p,
                               static_cast<double>(dir.lat.percentile(p)) / 1e9);
          }
        }
      }
    }
  }
  out += "# EOF\n";
  return out;
}

}  // namespace sluice
