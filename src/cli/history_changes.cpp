#include "cli/history_changes.h"

#include <fmt/format.h>

#include <cmath>
#include <optional>
#include <set>

#include "common/error.h"
#include "history/history_text.h"
#include "history/metric_path.h"
#include "history/spread.h"

namespace sluice {
namespace {

struct FollowedMetric {
  std::string path, job;
};

const nlohmann::json& first_document(const StoredResult& r) {
  static const nlohmann::json kEmpty = nlohmann::json::object();
  return r.repetitions.empty() ? kEmpty : r.repetitions.front();
}

// compare's job-option differences read each document's "jobs"; a document without them has no job options.
std::vector<Difference> option_differences(const StoredResult& a, const StoredResult& b) {
  const nlohmann::json& x = first_document(a);
  const nlohmann::json& y = first_document(b);
  if (!x.contains("jobs") || !y.contains("jobs") || !x["jobs"].is_array() || !y["jobs"].is_array()) return {};
  return job_option_differences(x, y);
}

std::string differences_text(const std::vector<Difference>& diffs) {
  std::string out;
  for (const Difference& d : diffs)
    out += fmt::format("{}{} {} -> {}", out.empty() ? "" : "; ", d.what, d.old_value, d.new_value);
  return out;
}

// Adjacent results must have run the same job options unless forced: else the series mixes workloads.
void check_one_series(const std::vector<StoredResult>& results, bool force) {
  std::set<std::string> commands;
  for (const StoredResult& r : results) commands.insert(r.command);
  if (commands.size() > 1) {
    throw UserError(fmt::format("history changes: the results mix commands ({}); pick one with --command or --label",
                                fmt::join(commands, ", ")));
  }
  if (force) return;
  for (std::size_t i = 1; i < results.size(); ++i) {
    const std::vector<Difference> diffs = option_differences(results[i - 1], results[i]);
    if (!diffs.empty()) {
      throw UserError(fmt::format(
          "history changes: results {} ({}) and {} ({}) ran different job options: {}; add --force to follow them "
          "as one series (the option changes are then named with the change points)",
          results[i - 1].id, results[i - 1].started_at, results[i].id, results[i].started_at, differences_text(diffs)));
    }
  }
}

std::vector<FollowedMetric> followed_metrics(const std::vector<StoredResult>& results, const ChangesRequest& request) {
  std::vector<FollowedMetric> out;
  for (const std::string& path : request.metrics) {
    metric_value(nlohmann::json::object(), path);  // a malformed path fails before anything is computed
    out.push_back({path, request.job});
  }
  if (!out.empty()) return out;
  for (const HeadlineMetric& m : headline_metrics(first_document(results.back()))) {
    if (request.job.empty() || m.job == request.job) out.push_back({m.path, m.job});
  }
  if (out.empty()) {
    throw UserError(
        fmt::format("history changes: result {} has no headline metric{}; name one: sluice history "
                    "changes read.iops",
                    results.back().id, request.job.empty() ? "" : " of job " + request.job));
  }
  return out;
}

std::string metric_title(const FollowedMetric& m) { return m.job.empty() ? m.path : m.job + ": " + m.path; }

std::optional<double> percent_of(double shift, double before) {
  if (before == 0) return std::nullopt;
  return shift / std::abs(before) * 100.0;
}

std::string percent_text(std::optional<double> value) {
  return value ? fmt::format("{:+.1f}%", *value) : std::string("n/a (the mean before is 0)");
}

}  // namespace

ChangesReport find_history_changes(const std::vector<StoredResult>& results, const ChangesRequest& request) {
  if (results.empty()) throw UserError("history changes: no saved result matches the filters; see sluice history list");
  check_one_series(results, request.force);
  ChangesReport report;
  report.request = request;
  report.results = results.size();
  report.first_started_at = results.front().started_at;
  report.last_started_at = results.back().started_at;
  for (const FollowedMetric& m : followed_metrics(results, request)) {
    std::vector<double> series;
    std::vector<html::SeriesPoint> points;
    std::vector<const StoredResult*> at;  // the result behind each point
    for (const StoredResult& r : results) {
      std::vector<double> values;
      for (const nlohmann::json& d : r.repetitions) {
        if (const std::optional<double> v = metric_value(d, m.path, m.job)) values.push_back(*v);
      }
      if (values.empty()) continue;  // the metric is not in this result: not a point of its series
      series.push_back(spread_of(std::move(values)).median);
      points.push_back({r.id, r.started_at, r.label, series.back()});
      at.push_back(&r);
    }
    report.metrics.push_back(metric_title(m));
    report.lengths.push_back(series.size());
    report.series.push_back(std::move(points));
    for (const ChangePoint& p : find_change_points(series, request.detection)) {
      const StoredResult& run = *at[p.index - 1];
      const StoredResult& previous = *at[p.index - 2];
      FoundChange c;
      c.metric = m.path;
      c.job = m.job;
      c.index = p.index;
      c.series_length = series.size();
      c.point = p;
      c.run_id = run.id;
      c.started_at = run.started_at;
      c.label = run.label;
      c.previous_id = previous.id;
      c.environment = environment_differences(first_document(previous), first_document(run));
      c.job_options = option_differences(previous, run);
      report.changes.push_back(std::move(c));
    }
  }
  return report;
}

std::vector<const FoundChange*> changes_of(const ChangesReport& report, std::size_t metric_index) {
  std::vector<const FoundChange*> mine;
  for (const FoundChange& c : report.changes) {
    if (metric_title({c.metric, c.job}) == report.metrics[metric_index]) mine.push_back(&c);
  }
  return mine;
}

std::string method_text(const ChangePointOptions& o) {
  return fmt::format("E-Divisive means, {} permutations, alpha {:g}, segments of at least {}", o.permutations, o.alpha,
                     std::max<std::size_t>(o.min_segment, 2));
}

std::string change_summary(const FoundChange& c, const ChangePointOptions& o) {
  const ChangePoint& p = c.point;
  return fmt::format("{} at result {} of {}: {} ({}{}), from {} to {}, {:.0f}% interval {} to {}, p = {:.3g}",
                     percent_text(percent_of(p.after - p.before, p.before)), c.index, c.series_length, c.run_id,
                     c.started_at, c.label.empty() ? "" : ", label " + c.label, display_number(p.before),
                     display_number(p.after), o.confidence * 100.0, percent_text(percent_of(p.shift_low, p.before)),
                     percent_text(percent_of(p.shift_high, p.before)), p.p_value);
}

std::vector<std::string> change_differences(const FoundChange& c) {
  std::vector<std::string> out;
  for (const std::vector<Difference>* diffs : {&c.job_options, &c.environment}) {
    for (const Difference& d : *diffs) out.push_back(fmt::format("{}: {} -> {}", d.what, d.old_value, d.new_value));
  }
  return out;
}

std::string render_changes_text(const ChangesReport& report) {
  const ChangePointOptions& o = report.request.detection;
  std::string out = fmt::format("Change points over {} results ({} to {}): {}\n", report.results,
                                report.first_started_at, report.last_started_at, method_text(o));
  for (std::size_t i = 0; i < report.metrics.size(); ++i) {
    const std::vector<const FoundChange*> mine = changes_of(report, i);
    out += fmt::format(
        "\n{}: {} in {} results\n", report.metrics[i],
        mine.empty() ? std::string("no change") : fmt::format("{} change{}", mine.size(), mine.size() == 1 ? "" : "s"),
        report.lengths[i]);
    for (const FoundChange* c : mine) {
      out += "  " + change_summary(*c, o) + "\n";
      const std::vector<std::string> differences = change_differences(*c);
      if (differences.empty()) {
        out += fmt::format("    nothing recorded differs from the result before ({})\n", c->previous_id);
        continue;
      }
      out += fmt::format("    changed since the result before ({}):\n", c->previous_id);
      for (const std::string& d : differences) out += "      " + d + "\n";
    }
  }
  return out;
}

nlohmann::json change_json(const FoundChange& c, const ChangePointOptions& o) {
  const ChangePoint& p = c.point;
  nlohmann::json diff = nlohmann::json::array();
  for (const Difference& d : c.job_options) {
    diff.push_back({{"kind", "job option"}, {"what", d.what}, {"old", d.old_value}, {"new", d.new_value}});
  }
  for (const Difference& d : c.environment) {
    diff.push_back({{"kind", "environment"}, {"what", d.what}, {"old", d.old_value}, {"new", d.new_value}});
  }
  auto percent_json = [](std::optional<double> v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
  return {{"metric", c.metric},
          {"job", c.job},
          {"index", c.index},
          {"series_length", c.series_length},
          {"run_id", c.run_id},
          {"started_at", c.started_at},
          {"label", c.label},
          {"previous_run_id", c.previous_id},
          {"before", p.before},
          {"after", p.after},
          {"shift", p.after - p.before},
          {"shift_percent", percent_json(percent_of(p.after - p.before, p.before))},
          {"ci",
           {{"method", "bootstrap percentile"},
            {"level", o.confidence},
            {"low", p.shift_low},
            {"high", p.shift_high},
            {"low_percent", percent_json(percent_of(p.shift_low, p.before))},
            {"high_percent", percent_json(percent_of(p.shift_high, p.before))}}},
          {"p_value", p.p_value},
          {"statistic", p.statistic},
          {"environment_diff", diff}};
}

nlohmann::json method_json(const ChangePointOptions& o) {
  return {{"name", "E-Divisive means"},
          {"permutations", o.permutations},
          {"alpha", o.alpha},
          {"min_segment", std::max<std::size_t>(o.min_segment, 2)},
          {"min_shift", o.min_relative_shift},
          {"seed", o.seed},
          {"bootstrap", o.bootstrap},
          {"confidence", o.confidence}};
}

nlohmann::json changes_json(const ChangesReport& report) {
  const ChangePointOptions& o = report.request.detection;
  nlohmann::json changes = nlohmann::json::array();
  for (const FoundChange& c : report.changes) changes.push_back(change_json(c, o));
  nlohmann::json metrics = nlohmann::json::array();
  for (std::size_t i = 0; i < report.metrics.size(); ++i) {
    metrics.push_back({{"metric", report.metrics[i]}, {"series_length", report.lengths[i]}});
  }
  return {{"sluice",
           {{"history",
             {{"method", method_json(o)},
              {"results", report.results},
              {"first_started_at", report.first_started_at},
              {"last_started_at", report.last_started_at},
              {"metrics", metrics},
              {"changes", changes}}}}}};
}

std::vector<html::SeriesSegment> segments_of(const std::vector<html::SeriesPoint>& series,
                                             const std::vector<const FoundChange*>& changes) {
  std::vector<html::SeriesSegment> out;
  std::size_t first = 1;
  auto close = [&](std::size_t last) {
    if (last < first) return;
    double sum = 0;
    for (std::size_t k = first; k <= last; ++k) sum += series[k - 1].value;
    out.push_back({first, last, sum / static_cast<double>(last - first + 1)});
    first = last + 1;
  };
  for (const FoundChange* c : changes) close(c->index - 1);
  close(series.size());
  return out;
}

html::SeriesChartInput series_chart_input(const ChangesReport& report, std::size_t metric_index, std::string id) {
  const std::vector<const FoundChange*> mine = changes_of(report, metric_index);
  html::SeriesChartInput input;
  input.id = std::move(id);
  input.title = report.metrics[metric_index];
  input.y_label = report.metrics[metric_index];
  input.points = report.series[metric_index];
  input.segments = segments_of(input.points, mine);
  for (const FoundChange* c : mine) {
    input.changes.push_back({c->index, percent_text(percent_of(c->point.after - c->point.before, c->point.before)),
                             change_summary(*c, report.request.detection), change_differences(*c)});
  }
  return input;
}

std::string render_changes_html(const ChangesReport& report) {
  std::vector<html::SeriesChartInput> inputs;
  for (std::size_t i = 0; i < report.metrics.size(); ++i) {
    inputs.push_back(series_chart_input(report, i, fmt::format("changes-{}", i + 1)));
  }
  return html::render_series_page(
      fmt::format("sluice history changes: {} results, {} to {}", report.results, report.first_started_at,
                  report.last_started_at),
      "Change points by " + method_text(report.request.detection) + "; each point is a result's median.", inputs);
}

}  // namespace sluice
