#include "history/history_text.h"

#include <fmt/format.h>

#include <optional>

namespace sluice {
namespace {

std::string text_at(const nlohmann::json& document, const char* pointer) {
  const nlohmann::json::json_pointer p(pointer);
  return document.contains(p) && document.at(p).is_string() ? document.at(p).get<std::string>() : std::string("-");
}

std::string first_headline(const StoredResult& r) {
  if (r.repetitions.empty()) return "-";
  const std::vector<MetricSpread> spreads = spreads_of(r.repetitions);
  if (spreads.empty()) return "-";
  const MetricSpread& s = spreads.front();
  return fmt::format("{} {} {}{}", s.metric.job, s.metric.name, display_number(s.spread.median),
                     s.metric.unit.empty() ? "" : " " + s.metric.unit);
}

// The first non-zero sluice.exit_code of the repetitions (a run saved after a failure), 0 if none.
int failed_exit_code(const StoredResult& r) {
  for (const nlohmann::json& d : r.repetitions) {
    const nlohmann::json::json_pointer p("/sluice/exit_code");
    if (d.contains(p) && d.at(p).is_number_integer() && d.at(p).get<int>() != 0) return d.at(p).get<int>();
  }
  return 0;
}

}  // namespace

std::vector<MetricSpread> spreads_of(const std::vector<nlohmann::json>& documents) {
  std::vector<MetricSpread> out;
  if (documents.empty()) return out;
  for (const HeadlineMetric& m : headline_metrics(documents.back())) {
    std::vector<double> values;
    for (const nlohmann::json& d : documents) {
      if (const std::optional<double> v = metric_value(d, m.path, m.job)) values.push_back(*v * m.scale);
    }
    out.push_back({m, spread_of(std::move(values))});
  }
  return out;
}

std::string display_number(double v) {
  return v >= 100 || v <= -100 ? fmt::format("{:.0f}", v) : fmt::format("{:.4g}", v);
}

std::string render_spread_text(const std::vector<MetricSpread>& spreads, std::size_t repetitions) {
  std::string out =
      fmt::format("\nSpread over {} repetitions (min / median / max, coefficient of variation):\n", repetitions);
  if (spreads.empty()) out += "  (no job did I/O)\n";
  for (const MetricSpread& s : spreads) {
    const std::string name =
        fmt::format("{}: {}{}", s.metric.job, s.metric.name, s.metric.unit.empty() ? "" : " (" + s.metric.unit + ")");
    out += fmt::format("  {:<34} {:>10} / {:>10} / {:>10}   CV {:.2f}%\n", name, display_number(s.spread.min),
                       display_number(s.spread.median), display_number(s.spread.max), s.spread.cv * 100.0);
  }
  return out;
}

std::string render_history_list(const std::vector<StoredResult>& results) {
  if (results.empty()) return "No saved results match.\n";
  std::string out = fmt::format("{:<8}  {:<20}  {:<12}  {:<16}  {:>4}  {:<12}  {}\n", "ID", "STARTED (UTC)", "COMMAND",
                                "LABEL", "REPS", "HOST", "HEADLINE (median)");
  for (const StoredResult& r : results) {
    const int failed = failed_exit_code(r);
    out += fmt::format("{:<8}  {:<20}  {:<12}  {:<16}  {:>4}  {:<12}  {}{}\n", r.id, r.started_at, r.command,
                       r.label.empty() ? "-" : r.label, r.repetitions.size(), r.host, first_headline(r),
                       failed ? fmt::format(" [FAILED: exit code {}]", failed) : "");
  }
  return out;
}

std::string render_history_show(const StoredResult& r) {
  std::string out;
  out += fmt::format("Result {}{}\n", r.id, r.label.empty() ? "" : " (label " + r.label + ")");
  out += fmt::format("  command:       {}\n", r.command);
  out += fmt::format("  command line:  {}\n", r.command_line);
  out += fmt::format("  started:       {}\n  ended:         {}\n", r.started_at, r.ended_at);
  out += fmt::format("  host:          {}\n  sluice:        {}\n", r.host, r.sluice_version);
  if (!r.repetitions.empty()) {
    out += fmt::format("  kernel:        {}\n", text_at(r.repetitions.back(), "/sluice/environment/kernel_release"));
  }
  out += fmt::format("  repetitions:   {}\n", r.repetitions.size());
  if (const int failed = failed_exit_code(r)) {
    out += fmt::format(
        "  outcome:       FAILED (exit code {}): saved after the failure; the figures cover only "
        "what was measured before it\n",
        failed);
  }
  out += "Job text (the comparability key):\n";
  std::size_t start = 0;
  while (start < r.job_text.size()) {
    std::size_t end = r.job_text.find('\n', start);
    if (end == std::string::npos) end = r.job_text.size();
    out += "  " + r.job_text.substr(start, end - start) + "\n";
    start = end + 1;
  }
  for (std::size_t i = 0; i < r.repetitions.size(); ++i) {
    out += fmt::format("Repetition {}:\n", i + 1);
    const std::vector<HeadlineMetric> metrics = headline_metrics(r.repetitions[i]);
    if (metrics.empty()) out += "  (no job did I/O)\n";
    for (const HeadlineMetric& m : metrics) {
      const std::optional<double> v = metric_value(r.repetitions[i], m.path, m.job);
      out += fmt::format("  {:<34} {}\n",
                         fmt::format("{}: {}{}", m.job, m.name, m.unit.empty() ? "" : " (" + m.unit + ")"),
                         v ? display_number(*v * m.scale) : std::string("-"));
    }
  }
  if (r.repetitions.size() > 1) out += render_spread_text(spreads_of(r.repetitions), r.repetitions.size());
  return out;
}

std::vector<TrendPoint> trend_points(const std::vector<StoredResult>& results, const std::string& metric,
                                     const std::string& job) {
  std::vector<TrendPoint> points;
  for (const StoredResult& r : results) {
    std::vector<double> values;
    for (const nlohmann::json& d : r.repetitions) {
      if (const std::optional<double> v = metric_value(d, metric, job)) values.push_back(*v);
    }
    points.push_back({r.id, r.started_at, r.label, spread_of(std::move(values))});
  }
  return points;
}

}  // namespace sluice
