#include "cli/history_trend.h"

#include <fmt/format.h>

#include <cmath>
#include <optional>

namespace sluice {
namespace {

std::string change_from_previous(const std::optional<double>& previous, double now) {
  if (!previous || *previous == 0) return "";
  return fmt::format("{:+.1f}%", (now - *previous) / *previous * 100.0);
}

// The position of each trend point in the series of points that have the metric (0: not in it).
std::vector<std::size_t> series_positions(const std::vector<TrendPoint>& points) {
  std::vector<std::size_t> out;
  out.reserve(points.size());
  std::size_t position = 0;
  for (const TrendPoint& p : points) out.push_back(p.spread.count > 0 ? ++position : 0);
  return out;
}

const html::SeriesSegment* segment_of(const std::vector<html::SeriesSegment>& segments, std::size_t position) {
  for (const html::SeriesSegment& s : segments) {
    if (position >= s.first && position <= s.last) return &s;
  }
  return nullptr;
}

}  // namespace

TrendReport build_trend(const std::vector<StoredResult>& results, const std::string& metric, const std::string& job,
                        const ChangePointOptions& detection) {
  TrendReport trend;
  trend.metric = metric;
  trend.points = trend_points(results, metric, job);
  ChangesRequest request;
  request.metrics = {metric};
  request.job = job;
  request.force = true;  // one job text already: the same options by construction
  request.detection = detection;
  trend.changes = find_history_changes(results, request);
  return trend;
}

std::string render_trend_report_text(const TrendReport& trend) {
  const std::vector<const FoundChange*> changes = changes_of(trend.changes, 0);
  const std::vector<html::SeriesSegment> segments = segments_of(trend.changes.series[0], changes);
  const std::vector<std::size_t> positions = series_positions(trend.points);
  std::string out = fmt::format("Trend of {} over {} comparable results (same command and job text), oldest first:\n",
                                trend.metric, trend.points.size());
  out += fmt::format("{:<8}  {:<20}  {:<16}  {:>4}  {:>12}  {:>12}  {:>12}  {:>7}  {:>7}  {:>12}  {}\n", "ID",
                     "STARTED (UTC)", "LABEL", "REPS", "MIN", "MEDIAN", "MAX", "CV", "CHANGE", "SEGMENT MEAN", "SHIFT");
  std::optional<double> previous;
  for (std::size_t i = 0; i < trend.points.size(); ++i) {
    const TrendPoint& p = trend.points[i];
    const std::string label = p.label.empty() ? "-" : p.label;
    if (p.spread.count == 0) {
      out += fmt::format("{:<8}  {:<20}  {:<16}  {:>4}  {:>12}\n", p.id, p.started_at, label, 0, "(no such value)");
      continue;
    }
    const html::SeriesSegment* segment = segment_of(segments, positions[i]);
    std::string shift;
    for (std::size_t k = 0; k < changes.size(); ++k) {
      const ChangePoint& c = changes[k]->point;
      if (changes[k]->index != positions[i]) continue;
      shift = fmt::format("<- change {}: {} (p = {:.3g})", k + 1,
                          c.before != 0 ? fmt::format("{:+.1f}%", (c.after - c.before) / std::abs(c.before) * 100.0)
                                        : std::string("from 0"),
                          c.p_value);
    }
    std::string line =
        fmt::format("{:<8}  {:<20}  {:<16}  {:>4}  {:>12}  {:>12}  {:>12}  {:>6.2f}%  {:>7}  {:>12}  {}", p.id,
                    p.started_at, label, p.spread.count, display_number(p.spread.min), display_number(p.spread.median),
                    display_number(p.spread.max), p.spread.cv * 100.0, change_from_previous(previous, p.spread.median),
                    segment ? display_number(segment->mean) : "", shift);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
    previous = p.spread.median;
  }
  const ChangePointOptions& o = trend.changes.request.detection;
  out += fmt::format("\n{} ({}):\n",
                     changes.empty() ? "No change point"
                                     : fmt::format("{} change point{}", changes.size(), changes.size() == 1 ? "" : "s"),
                     method_text(o));
  for (std::size_t k = 0; k < changes.size(); ++k) {
    out += fmt::format("  {}. {}\n", k + 1, change_summary(*changes[k], o));
    const std::vector<std::string> differences = change_differences(*changes[k]);
    if (differences.empty()) {
      out += fmt::format("     nothing recorded differs from the result before ({})\n", changes[k]->previous_id);
      continue;
    }
    out += fmt::format("     changed since the result before ({}):\n", changes[k]->previous_id);
    for (const std::string& d : differences) out += "       " + d + "\n";
  }
  return out;
}

nlohmann::json trend_report_json(const TrendReport& trend) {
  const std::vector<const FoundChange*> changes = changes_of(trend.changes, 0);
  const std::vector<html::SeriesPoint>& series = trend.changes.series[0];
  const std::vector<html::SeriesSegment> segments = segments_of(series, changes);
  const std::vector<std::size_t> positions = series_positions(trend.points);
  nlohmann::json points = nlohmann::json::array();
  for (std::size_t i = 0; i < trend.points.size(); ++i) {
    const TrendPoint& p = trend.points[i];
    nlohmann::json row = {{"id", p.id}, {"started_at", p.started_at}, {"label", p.label}, {"count", p.spread.count}};
    if (p.spread.count > 0) {
      row["position"] = positions[i];
      row["min"] = p.spread.min;
      row["median"] = p.spread.median;
      row["max"] = p.spread.max;
      row["cv"] = p.spread.cv;
      const html::SeriesSegment* segment = segment_of(segments, positions[i]);
      row["segment_mean"] = segment ? nlohmann::json(segment->mean) : nlohmann::json(nullptr);
    }
    points.push_back(std::move(row));
  }
  nlohmann::json change_points = nlohmann::json::array();
  for (const FoundChange* c : changes) change_points.push_back(change_json(*c, trend.changes.request.detection));
  nlohmann::json segment_rows = nlohmann::json::array();
  for (const html::SeriesSegment& s : segments) {
    segment_rows.push_back({{"first", s.first},
                            {"last", s.last},
                            {"first_run_id", series[s.first - 1].id},
                            {"last_run_id", series[s.last - 1].id},
                            {"count", s.last - s.first + 1},
                            {"mean", s.mean}});
  }
  return {{"sluice",
           {{"history",
             {{"trend",
               {{"metric", trend.metric},
                {"job", trend.changes.request.job},
                {"method", method_json(trend.changes.request.detection)},
                {"points", points},
                {"change_points", change_points},
                {"segments", segment_rows}}}}}}}};
}

std::string render_trend_html(const TrendReport& trend) {
  return html::render_series_page(
      fmt::format("sluice history trend: {} over {} results", trend.metric, trend.points.size()),
      "Comparable results (same command and job text), oldest first; change points by " +
          method_text(trend.changes.request.detection) + "; each point is a result's median.",
      {series_chart_input(trend.changes, 0, "trend")});
}

}  // namespace sluice
