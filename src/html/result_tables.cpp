#include "html/result_tables.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "common/json_read.h"
#include "html/json_numbers.h"
#include "html/svg_text.h"
#include "report/report_format.h"

namespace sluice::html {
namespace {

using nlohmann::json;
using report::compact_number;
using report::NumUnit;

std::string cell(const std::string& text) { return "<td>" + escape(text) + "</td>"; }

std::string header_row(std::initializer_list<const char*> names) {
  std::string out = "<tr>";
  for (const char* n : names) out += std::string("<th>") + n + "</th>";
  return out + "</tr>\n";
}

std::string scalar_text(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "-";
  return v.dump();
}

// As text_job.cpp's stat line: min and max truncated to the unit, avg and stdev with 2 decimals.
std::string stat_cells(const json& lat) {
  const std::uint64_t min_ns = whole_number(number(lat, "min"));
  const std::uint64_t max_ns = whole_number(number(lat, "max"));
  const double stdev = number(lat, "stddev");
  const report::LatencyUnit unit = report::stat_line_unit(min_ns, max_ns, stdev);
  const double div = static_cast<double>(unit.divisor);
  const std::uint64_t min_in_unit = min_ns / unit.divisor;  // whole units, truncated as fio prints them
  const std::uint64_t max_in_unit = max_ns / unit.divisor;
  return cell(std::string(unit.name)) +
         cell(compact_number(static_cast<double>(min_in_unit), 6, 1000, NumUnit::kNone)) +
         cell(compact_number(static_cast<double>(max_in_unit), 6, 1000, NumUnit::kNone)) +
         cell(fmt::format("{:.2f}", number(lat, "mean") / div)) + cell(fmt::format("{:.2f}", stdev / div));
}

// As text_job.cpp's percentile table: one unit for the listed percentiles, values rounded up to it.
std::string percentile_cells(const json& lat) {
  const auto pct = lat.find("percentile");
  if (pct == lat.end() || !pct->is_object() || pct->empty()) return cell("-") + cell("-") + cell("-") + cell("-");
  std::uint64_t lo = UINT64_MAX, hi = 0;
  for (const auto& [key, v] : pct->items()) {
    if (!v.is_number()) continue;
    lo = std::min(lo, whole_number(v.get<double>()));
    hi = std::max(hi, whole_number(v.get<double>()));
  }
  const report::LatencyUnit unit = report::percentile_table_unit(lo == UINT64_MAX ? 0 : lo, hi);
  std::string out = cell(std::string(unit.name));
  for (const char* key : {"50.000000", "99.000000", "99.900000"}) {
    const auto v = pct->find(key);
    out += v != pct->end() && v->is_number()
               ? cell(fmt::format("{}", whole_number(v->get<double>()) / unit.divisor +
                                            (whole_number(v->get<double>()) % unit.divisor != 0 ? 1 : 0)))
               : cell("-");
  }
  return out;
}

const json* latency_of(const json& dir) {
  for (const char* key : {"clat_ns", "lat_ns"}) {
    const auto it = dir.find(key);
    if (it != dir.end() && it->is_object() && number(*it, "N", 1) > 0) return &*it;
  }
  return nullptr;
}

}  // namespace

std::string results_table(const json& doc) {
  std::string rows;
  for (const json& job : doc.at("jobs")) {
    if (!job.is_object()) continue;
    for (const char* dir : kDirections) {
      const auto d = job.find(dir);
      if (d == job.end() || !d->is_object() || number(*d, "total_ios") <= 0) continue;
      const double bw = number(*d, "bw_bytes");
      rows += "<tr>" + cell(text_or(job, "jobname", "?")) + cell(dir) +
              cell(compact_number(number(*d, "iops"), 4, 1000, NumUnit::kNone)) +
              cell(compact_number(bw, 4, 1024, NumUnit::kBytes) + "/s") +
              cell(fmt::format("{}", whole_number(number(*d, "total_ios"))));
      const json* lat = latency_of(*d);
      if (lat != nullptr) {
        rows += stat_cells(*lat) + percentile_cells(*lat);
      } else {
        for (int i = 0; i < 9; ++i) rows += cell("-");
      }
      rows += "</tr>\n";
    }
  }
  if (rows.empty()) return "";
  return "<table class=\"numbers\">\n"
         "<tr><th rowspan=\"2\">job</th><th rowspan=\"2\">dir</th><th rowspan=\"2\">IOPS</th><th rowspan=\"2\">BW</th>"
         "<th rowspan=\"2\">I/Os</th><th colspan=\"5\">completion latency</th><th "
         "colspan=\"4\">percentiles</th></tr>\n" +
         header_row({"unit", "min", "max", "avg", "stdev", "unit", "p50", "p99", "p99.9"}) + rows + "</table>\n";
}

std::string spread_table(const ReportInput& input) {
  if (input.repetitions.size() < 2) return "";
  std::string rows;
  const json& first = input.repetitions.front();
  for (std::size_t j = 0; j < first.at("jobs").size(); ++j) {
    for (const char* dir : kDirections) {
      std::vector<double> values;
      for (const json& rep : input.repetitions) {
        const json& jobs = rep.at("jobs");
        if (j >= jobs.size() || !jobs[j].contains(dir)) continue;
        if (number(jobs[j][dir], "total_ios") > 0) values.push_back(number(jobs[j][dir], "iops"));
      }
      if (values.size() < 2) continue;
      std::sort(values.begin(), values.end());
      const std::size_t n = values.size();
      const double median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
      double mean = 0;
      for (double v : values) mean += v;
      mean /= static_cast<double>(n);
      double var = 0;
      for (double v : values) var += (v - mean) * (v - mean);
      const double cv = mean > 0 ? std::sqrt(var / static_cast<double>(n - 1)) / mean * 100 : 0;
      rows += "<tr>" + cell(text_or(first["jobs"][j], "jobname", "?")) + cell(dir) + cell(fmt::format("{}", n)) +
              cell(compact_number(values.front(), 4, 1000, NumUnit::kNone)) +
              cell(compact_number(median, 4, 1000, NumUnit::kNone)) +
              cell(compact_number(values.back(), 4, 1000, NumUnit::kNone)) + cell(fmt::format("{:.1f}%", cv)) +
              "</tr>\n";
    }
  }
  if (rows.empty()) return "";
  return "<table class=\"spread\">\n" + header_row({"job", "dir", "repetitions", "IOPS min", "median", "max", "CV"}) +
         rows + "</table>\n";
}

std::string capacity_table(const json& doc) {
  const auto s = doc.find("sluice");
  if (s == doc.end() || !s->is_object() || !s->contains("capacity")) return "";
  const json& cap = s->at("capacity");
  if (!cap.contains("curve") || !cap["curve"].is_array()) return "";
  const double slo_ms = number(cap, "slo_ns") / 1e6;
  std::string out = fmt::format(
      "<p>Limit: {} latency &lt;= {:.3f} ms. Capacity: {}.</p>\n", escape(text_or(cap, "stat", "mean")), slo_ms,
      cap.contains("iops") && cap["iops"].is_number()
          ? fmt::format("{:.0f} IOPS at concurrency {}", number(cap, "iops"), scalar_text(cap["concurrency"]))
          : std::string("none within the limit"));
  out += "<table class=\"capacity\">\n" + header_row({"concurrency", "iodepth", "numjobs", "IOPS", "mean ms", "p50 ms",
                                                      "p99 ms", "p99.9 ms", "steady", "within SLO", "mark"});
  for (const json& p : cap["curve"]) {
    std::string mark;
    for (const char* m : {"knee", "thrashing"}) {
      if (cap.contains(m) && cap[m].is_object() && number(cap[m], "concurrency") == number(p, "concurrency")) mark += m;
    }
    out += "<tr>" + cell(scalar_text(field_or(p, "concurrency", json()))) +
           cell(scalar_text(field_or(p, "iodepth", json()))) + cell(scalar_text(field_or(p, "numjobs", json()))) +
           cell(fmt::format("{:.0f}", number(p, "iops")));
    for (const char* k : {"lat_mean_ns", "lat_p50_ns", "lat_p99_ns", "lat_p999_ns"}) {
      out += cell(fmt::format("{:.3f}", number(p, k) / 1e6));
    }
    out += cell(flag_or(p, "steady", false) ? "yes" : "no") + cell(flag_or(p, "within_slo", false) ? "yes" : "no") +
           cell(mark) + "</tr>\n";
  }
  return out + "</table>\n";
}

std::string interference_tables(const json& doc) {
  const auto s = doc.find("sluice");
  if (s == doc.end() || !s->is_object() || !s->contains("interference")) return "";
  const json& in = s->at("interference");
  std::string out =
      "<table class=\"phases\">\n" + header_row({"phase", "threads", "seconds", "fg IOPS", "fsync p99 ms", "bg MiB/s"});
  for (const json& p : field_or(in, "phases", json::array())) {
    const double p99 = p.contains("fsync_lat_ns") ? number(p["fsync_lat_ns"], "p99_ns") : 0;
    out += "<tr>" + cell(text_or(p, "name", "?")) + cell(scalar_text(field_or(p, "threads", json()))) +
           cell(fmt::format("{:.1f}", number(p, "seconds"))) + cell(fmt::format("{:.1f}", number(p, "iops"))) +
           cell(fmt::format("{:.3f}", p99 / 1e6)) + cell(fmt::format("{:.1f}", number(p, "bg_bw_bytes") / 1048576.0)) +
           "</tr>\n";
  }
  out += "</table>\n";
  const json trials = field_or(in, "trials", json::array());
  if (!trials.empty()) {
    out +=
        "<table class=\"trials\">\n" + header_row({"knob trial", "threads", "fg IOPS", "fg fsync p99 ms", "bg MiB/s"});
    for (const json& t : trials) {
      std::string settings;
      const json knob_settings = field_or(t, "settings", json::object());  // named: items() refers to it
      for (const auto& [k, v] : knob_settings.items()) {
        settings += (settings.empty() ? "" : ", ") + k + "=" + scalar_text(v);
      }
      if (flag_or(t, "baseline", false)) settings = "baseline (no change)";
      const bool ran = flag_or(t, "baseline", false) || flag_or(t, "ran", false);
      out += "<tr>" + cell(settings) + cell(scalar_text(field_or(t, "threads", json())));
      out += ran ? cell(fmt::format("{:.1f}", number(t, "fg_iops"))) +
                       cell(fmt::format("{:.3f}", number(t, "fg_lat_p99_ns") / 1e6)) +
                       cell(fmt::format("{:.1f}", number(t, "bg_bw_bytes") / 1048576.0))
                 : "<td colspan=\"3\">not run: " + escape(text_or(t, "skipped", "-")) + "</td>";
      out += "</tr>\n";
    }
    out += "</table>\n";
  }
  return out;
}

namespace {

void flatten(const json& value, const std::string& path, std::string& rows) {
  if (value.is_object()) {
    for (const auto& [k, v] : value.items()) flatten(v, path.empty() ? k : path + "." + k, rows);
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) flatten(value[i], fmt::format("{}[{}]", path, i), rows);
  } else {
    rows += "<tr>" + cell(path) + cell(scalar_text(value)) + "</tr>\n";
  }
}

}  // namespace

std::string environment_table(const json& doc) {
  std::string rows;
  for (const char* key : {"fio version", "time"}) {
    if (doc.contains(key)) rows += "<tr>" + cell(key) + cell(scalar_text(doc[key])) + "</tr>\n";
  }
  const auto s = doc.find("sluice");
  if (s != doc.end() && s->is_object()) {
    if (s->contains("clock_source"))
      rows += "<tr>" + cell("clock_source") + cell(scalar_text((*s)["clock_source"])) + "</tr>\n";
    if (s->contains("environment")) flatten((*s)["environment"], "", rows);
  }
  if (rows.empty()) return "";
  return "<table class=\"environment\">\n" + header_row({"field", "value"}) + rows + "</table>\n";
}

std::string job_file_block(const json& doc) {
  std::string text;
  const auto add_section = [&text](const std::string& name, const json& options) {
    text += "[" + name + "]\n";
    for (const auto& [k, v] : options.items()) text += k + "=" + scalar_text(v) + "\n";
  };
  if (doc.contains("global options") && doc["global options"].is_object()) add_section("global", doc["global options"]);
  for (const json& job : doc.at("jobs")) {
    if (!job.is_object() || !job.contains("job options") || !job["job options"].is_object()) continue;
    if (!text.empty()) text += "\n";
    add_section(text_or(job, "jobname", "job"), job["job options"]);
  }
  if (text.empty()) return "";
  return "<pre class=\"jobfile\">" + escape(text) + "</pre>\n";
}

}  // namespace sluice::html
