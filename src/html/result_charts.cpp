#include "html/result_charts.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>

#include "common/json_read.h"
#include "html/json_numbers.h"

namespace sluice::html {
namespace {

using nlohmann::json;

const json* latency_section(const json& dir) {
  for (const char* key : {"clat_ns", "lat_ns"}) {
    const auto it = dir.find(key);
    if (it != dir.end() && it->is_object() && number(*it, "N", 1) > 0) return &*it;
  }
  return nullptr;
}

// Percentiles from json+ bins: every bin's upper cumulative fraction (one point per distinct value).
std::vector<ChartPoint> from_bins(const json& bins, std::uint64_t& total) {
  std::vector<std::pair<double, double>> values;  // latency ns, count
  for (const auto& [key, count] : bins.items()) {
    if (!count.is_number()) continue;
    values.emplace_back(std::strtod(key.c_str(), nullptr), count.get<double>());
  }
  std::sort(values.begin(), values.end());
  double sum = 0;
  for (const auto& v : values) sum += v.second;
  total = whole_number(sum);  // counts beyond 64 bits (a corrupt document) read as 0, not undefined behaviour
  std::vector<ChartPoint> out;
  double upto = 0;
  for (const auto& [ns, count] : values) {
    upto += count;  // p% of the I/Os took at most ns
    out.push_back({100.0 * upto / sum, ns});
  }
  return out;
}

std::vector<ChartPoint> from_percentiles(const json& percentiles) {
  std::vector<ChartPoint> out;
  for (const auto& [key, value] : percentiles.items()) {
    if (!value.is_number()) continue;
    out.push_back({std::strtod(key.c_str(), nullptr), value.get<double>()});
  }
  std::sort(out.begin(), out.end(), [](const ChartPoint& a, const ChartPoint& b) { return a.x < b.x; });
  return out;
}

std::string job_label(const json& job, std::size_t index) {
  std::string name = text_or(job, "jobname", fmt::format("job{}", index));
  const auto s = job.find("sluice");
  if (s != job.end() && s->is_object() && s->value("role", "") == "background") name += " (background)";
  return name;
}

// The sluice section's entry for jobs[index] (the two arrays are parallel), or nullptr.
const json* sluice_job(const json& doc, std::size_t index) {
  const auto s = doc.find("sluice");
  if (s == doc.end() || !s->is_object()) return nullptr;
  const auto jobs = s->find("jobs");
  if (jobs == s->end() || !jobs->is_array() || index >= jobs->size()) return nullptr;
  return &(*jobs)[index];
}

std::string slug(const std::string& text) {
  std::string out;
  for (char c : text) out += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '_';
  return out;
}

double max_y(const std::vector<ChartSeries>& series, Axis axis) {
  double m = 0;
  for (const ChartSeries& s : series) {
    if (s.axis != axis) continue;
    for (const ChartPoint& p : s.points) m = std::max(m, p.y);
  }
  return m;
}

void scale_y(std::vector<ChartSeries>& series, Axis axis, double divisor) {
  for (ChartSeries& s : series) {
    if (s.axis != axis) continue;
    for (ChartPoint& p : s.points) p.y /= divisor;
  }
}

// Per-interval IOPS (left) with p99 (right, dashed), and bandwidth, of one job from its sluice series.
void series_charts(const json& series, const std::string& job, const std::string& id_prefix, const std::string& suffix,
                   std::vector<ChartSpec>& out) {
  const auto samples = series.find("samples");
  if (samples == series.end() || !samples->is_array() || samples->empty()) return;
  ChartSpec timeline;
  timeline.id = id_prefix + "timeline-" + slug(job);
  timeline.title = "IOPS and p99 latency per interval: " + job + suffix;
  timeline.x.label = "time (s)";
  timeline.y.label = "IOPS";
  ChartSpec bandwidth;
  bandwidth.id = id_prefix + "bandwidth-" + slug(job);
  bandwidth.title = "Bandwidth per interval: " + job + suffix;
  bandwidth.x.label = "time (s)";
  bandwidth.y.label = "bandwidth (MiB/s)";
  int color = 0;
  for (const char* dir : kDirections) {
    ChartSeries iops{std::string(dir) + " IOPS", {}, Axis::kLeft, false, false, color};
    ChartSeries p99{std::string(dir) + " p99", {}, Axis::kRight, false, true, color};
    ChartSeries bw{std::string(dir) + " MiB/s", {}, Axis::kLeft, false, false, color};
    double ops = 0;
    for (const json& sample : *samples) {
      const auto d = sample.find(dir);
      if (d == sample.end() || !d->is_object()) continue;
      const double t = number(sample, "t_s");
      ops += number(*d, "iops");
      iops.points.push_back({t, number(*d, "iops")});
      p99.points.push_back({t, number(*d, "lat_p99_ns")});
      bw.points.push_back({t, number(*d, "bw_bytes") / 1048576.0});
    }
    ++color;
    if (ops <= 0) continue;
    timeline.series.push_back(std::move(iops));
    timeline.series.push_back(std::move(p99));
    bandwidth.series.push_back(std::move(bw));
  }
  if (timeline.series.empty()) return;
  const TimeUnit unit = latency_unit(max_y(timeline.series, Axis::kRight));
  scale_y(timeline.series, Axis::kRight, unit.divisor);
  timeline.y2.label = fmt::format("p99 latency ({}), dashed", unit.name);
  const std::size_t n = samples->size();
  const std::string thinned =
      n > 2 * kMaxBuckets ? fmt::format("; {} intervals drawn as the min and max of {} buckets", n, kMaxBuckets) : "";
  timeline.note = "p99 of each interval's own latency histogram" + thinned;
  bandwidth.note = "bytes completed per interval" + thinned;
  out.push_back(std::move(timeline));
  out.push_back(std::move(bandwidth));
}

const char* stat_key(const std::string& stat) {
  if (stat == "p50") return "lat_p50_ns";
  if (stat == "p95") return "lat_p95_ns";
  if (stat == "p99") return "lat_p99_ns";
  if (stat == "p99.9") return "lat_p999_ns";
  return "lat_mean_ns";
}

std::vector<Tick> power_of_two_ticks(double lo, double hi) {
  std::vector<Tick> ticks;
  for (double v = 1; v <= hi * 1.0001; v *= 2) {
    if (v >= lo * 0.9999) ticks.push_back({v, fmt::format("{}", static_cast<std::uint64_t>(v))});
  }
  return ticks;
}

void capacity_chart(const json& cap, const std::string& id_prefix, const std::string& suffix,
                    std::vector<ChartSpec>& out) {
  const auto curve = cap.find("curve");
  if (curve == cap.end() || !curve->is_array() || curve->empty()) return;
  const std::string stat = text_or(cap, "stat", "mean");
  const char* key = stat_key(stat);
  ChartSpec c;
  c.id = id_prefix + "capacity";
  c.title = "Capacity curve: IOPS and " + stat + " latency vs concurrency" + suffix;
  c.x.label = "concurrency (iodepth x numjobs), log2";
  c.x.log = true;
  c.y.label = "IOPS";
  ChartSeries iops{"IOPS", {}, Axis::kLeft, true, false, 0};
  ChartSeries lat{stat + " latency", {}, Axis::kRight, true, true, 1};
  std::vector<const json*> points;
  for (const json& p : *curve) points.push_back(&p);
  std::stable_sort(points.begin(), points.end(),
                   [](const json* a, const json* b) { return number(*a, "concurrency") < number(*b, "concurrency"); });
  double lat_max = number(cap, "slo_ns");
  for (const json* p : points) lat_max = std::max(lat_max, number(*p, key));
  const TimeUnit unit = latency_unit(lat_max);
  for (const json* p : points) {
    iops.points.push_back({number(*p, "concurrency"), number(*p, "iops")});
    lat.points.push_back({number(*p, "concurrency"), number(*p, key) / unit.divisor});
  }
  c.x.lo = std::max(1.0, iops.points.front().x);
  c.x.hi = std::max(c.x.lo * 2, iops.points.back().x);
  c.x.ticks = power_of_two_ticks(c.x.lo, c.x.hi);
  c.y2.label = fmt::format("{} latency ({}), dashed", stat, unit.name);
  c.series = {std::move(iops), std::move(lat)};
  if (number(cap, "slo_ns") > 0) {
    c.levels.push_back({number(cap, "slo_ns") / unit.divisor, Axis::kRight, "SLO " + stat});
  }
  for (const char* mark : {"knee", "thrashing"}) {
    const auto p = cap.find(mark);
    if (p == cap.end() || !p->is_object()) continue;
    c.highlights.push_back({{number(*p, "concurrency"), number(*p, "iops")},
                            Axis::kLeft,
                            fmt::format("{} ({})", mark, whole_number(number(*p, "concurrency")))});
  }
  c.note = "dots are measured points; red circles mark the knee and the thrashing point, the dashed red line the SLO";
  out.push_back(std::move(c));
}

void interference_charts(const json& inter, const std::string& id_prefix, const std::string& suffix,
                         std::vector<ChartSpec>& out) {
  const auto timeline = inter.find("timeline");
  if (timeline == inter.end() || !timeline->is_array() || timeline->empty()) return;
  ChartSpec fg;
  fg.id = id_prefix + "interference";
  fg.title = "Interference: foreground IOPS and p99 per second" + suffix;
  fg.x.label = "time (s), phases one after another";
  fg.y.label = "foreground IOPS";
  ChartSpec wb;
  wb.id = id_prefix + "dirty";
  wb.title = "Interference: Dirty and Writeback memory" + suffix;
  wb.x.label = fg.x.label;
  wb.y.label = "MiB";
  ChartSeries iops{"fg IOPS", {}, Axis::kLeft, false, false, 0};
  ChartSeries p99{"fg fsync p99", {}, Axis::kRight, false, true, 1};
  ChartSeries dirty{"Dirty", {}, Axis::kLeft, false, false, 4};
  ChartSeries writeback{"Writeback", {}, Axis::kLeft, false, false, 2};
  std::string phase;
  double offset = 0;
  double last_t = 0;
  for (const json& point : *timeline) {
    const std::string name =
        fmt::format("{} x{}", text_or(point, "phase", "?"), whole_number(number(point, "threads")));
    if (name != phase) {
      offset += last_t;
      last_t = 0;
      phase = name;
      fg.markers.push_back({offset, name, ""});
      wb.markers.push_back({offset, name, ""});
    }
    last_t = number(point, "t_s");
    const double t = offset + last_t;
    iops.points.push_back({t, number(point, "fg_iops")});
    p99.points.push_back({t, number(point, "fg_lat_p99_ns")});
    dirty.points.push_back({t, number(point, "dirty_bytes") / 1048576.0});
    writeback.points.push_back({t, number(point, "writeback_bytes") / 1048576.0});
  }
  fg.series = {std::move(iops), std::move(p99)};
  const TimeUnit unit = latency_unit(max_y(fg.series, Axis::kRight));
  scale_y(fg.series, Axis::kRight, unit.divisor);
  fg.y2.label = fmt::format("fsync p99 ({}), dashed", unit.name);
  fg.note = "dotted lines mark the start of each phase (name x foreground threads); knob trials are in the table below";
  wb.series = {std::move(dirty), std::move(writeback)};
  const auto limits = inter.find("dirty_limits");
  if (limits != inter.end() && limits->is_object()) {
    if (number(*limits, "limit_bytes") > 0)
      wb.levels.push_back({number(*limits, "limit_bytes") / 1048576.0, Axis::kLeft, "dirty limit"});
    if (number(*limits, "background_bytes") > 0) {
      wb.levels.push_back({number(*limits, "background_bytes") / 1048576.0, Axis::kLeft, "background threshold"});
    }
  }
  wb.note = "from /proc/meminfo each second; red lines are the kernel's dirty thresholds";
  out.push_back(std::move(fg));
  out.push_back(std::move(wb));
}

}  // namespace

TimeUnit latency_unit(double max_ns) {
  if (max_ns >= 2e6) return {"ms", 1e6};
  if (max_ns >= 2e3) return {"µs", 1e3};
  return {"ns", 1};
}

std::vector<LatencyCurve> latency_curves(const json& doc) {
  std::vector<LatencyCurve> out;
  const json& jobs = doc.at("jobs");
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const json& job = jobs[i];
    if (!job.is_object()) continue;
    for (const char* dir : kDirections) {
      const auto d = job.find(dir);
      if (d == job.end() || !d->is_object() || number(*d, "total_ios") <= 0) continue;
      const json* lat = latency_section(*d);
      if (lat == nullptr) continue;
      LatencyCurve curve;
      curve.name = job_label(job, i) + " " + dir;
      curve.ios = whole_number(number(*d, "total_ios"));
      const auto bins = lat->find("bins");
      const auto pct = lat->find("percentile");
      if (bins != lat->end() && bins->is_object() && !bins->empty()) {
        curve.percentiles = from_bins(*bins, curve.ios);
      } else if (pct != lat->end() && pct->is_object()) {
        curve.percentiles = from_percentiles(*pct);
      }
      if (!curve.percentiles.empty()) out.push_back(std::move(curve));
    }
  }
  return out;
}

ChartSpec spectrum_chart(const std::string& id, const std::string& title, const std::vector<LatencyCurve>& curves) {
  ChartSpec c;
  c.id = id;
  c.title = title;
  c.x.label = "percentile (x = 1/(1-p), log scale)";
  c.x.log = true;
  double max_ns = 0;
  double max_x = 10;
  for (const LatencyCurve& curve : curves) {
    ChartSeries s;
    s.name = curve.name;
    const double limit = curve.ios > 0 ? 100.0 * (1.0 - 1.0 / static_cast<double>(curve.ios)) : 0;
    for (const ChartPoint& p : curve.percentiles) {
      if (p.x > limit + 1e-9 || p.x >= 100) continue;
      const double x = 1.0 / (1.0 - p.x / 100.0);
      s.points.push_back({x, p.y});
      max_ns = std::max(max_ns, p.y);
      max_x = std::max(max_x, x);
    }
    c.series.push_back(std::move(s));
  }
  const TimeUnit unit = latency_unit(max_ns);
  scale_y(c.series, Axis::kLeft, unit.divisor);
  // Log latency: the body (microseconds) and the tail (milliseconds) are both readable.
  c.y.log = true;
  c.y.label = fmt::format("latency ({}), log scale", unit.name);
  c.x.lo = 1;
  c.x.hi = std::pow(10.0, std::ceil(std::log10(max_x) - 1e-9));
  static const std::vector<Tick> kTicks = {{1, "0%"},      {2, "50%"},      {10, "90%"},      {100, "99%"},
                                           {1e3, "99.9%"}, {1e4, "99.99%"}, {1e5, "99.999%"}, {1e6, "99.9999%"}};
  for (const Tick& t : kTicks) {
    if (t.value <= c.x.hi) c.x.ticks.push_back(t);
  }
  c.note = "each curve ends at the percentile its I/O count supports (p <= 1 - 1/N)";
  return c;
}

ChartSpec cdf_chart(const std::string& id, const std::string& title, const std::vector<LatencyCurve>& curves) {
  ChartSpec c;
  c.id = id;
  c.title = title;
  c.x.log = true;
  c.y.label = "I/Os at or below (%)";
  c.y.lo = 0;
  c.y.hi = 100;
  double max_ns = 0;
  double min_ns = 0;
  for (const LatencyCurve& curve : curves) {
    ChartSeries s;
    s.name = curve.name;
    for (const ChartPoint& p : curve.percentiles) {
      s.points.push_back({p.y, p.x});
      max_ns = std::max(max_ns, p.y);
      if (p.y > 0 && (min_ns == 0 || p.y < min_ns)) min_ns = p.y;
    }
    c.series.push_back(std::move(s));
  }
  const TimeUnit unit = latency_unit(max_ns);
  for (ChartSeries& s : c.series) {
    for (ChartPoint& p : s.points) p.x /= unit.divisor;
  }
  c.x.label = fmt::format("latency ({}), log scale", unit.name);
  if (min_ns > 0) {
    c.x.lo = std::pow(10.0, std::floor(std::log10(min_ns / unit.divisor)));
    c.x.hi = std::pow(10.0, std::ceil(std::log10(max_ns / unit.divisor)));
    if (c.x.hi <= c.x.lo) c.x.hi = c.x.lo * 10;
  }
  c.note = "the same distribution as the spectrum, read as 'how many I/Os finished within x'";
  return c;
}

std::vector<ChartSpec> result_charts(const json& doc, const std::string& id_prefix, const std::string& title_suffix) {
  std::vector<ChartSpec> out;
  const std::vector<LatencyCurve> curves = latency_curves(doc);
  if (!curves.empty()) {
    out.push_back(spectrum_chart(id_prefix + "spectrum", "Latency percentile spectrum" + title_suffix, curves));
    out.push_back(cdf_chart(id_prefix + "cdf", "Latency CDF" + title_suffix, curves));
  }
  const json& jobs = doc.at("jobs");
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const json* sj = sluice_job(doc, i);
    if (sj == nullptr || !sj->contains("series")) continue;
    series_charts(sj->at("series"), job_label(jobs[i], i), id_prefix, title_suffix, out);
  }
  const auto s = doc.find("sluice");
  if (s != doc.end() && s->is_object()) {
    if (s->contains("capacity") && s->at("capacity").is_object())
      capacity_chart(s->at("capacity"), id_prefix, title_suffix, out);
    if (s->contains("interference") && s->at("interference").is_object()) {
      interference_charts(s->at("interference"), id_prefix, title_suffix, out);
    }
  }
  return out;
}

std::vector<ChartSpec> overlay_charts(const std::vector<ReportInput>& inputs) {
  if (inputs.size() < 2) return {};
  std::vector<LatencyCurve> all;
  for (const ReportInput& input : inputs) {
    for (LatencyCurve& curve : latency_curves(input.repetitions.front())) {
      curve.name = input.name + ": " + curve.name;
      all.push_back(std::move(curve));
    }
  }
  if (all.empty()) return {};
  return {spectrum_chart("overlay-spectrum", "Latency spectra of the inputs overlaid", all)};
}

}  // namespace sluice::html
