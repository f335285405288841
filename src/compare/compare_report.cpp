#include "compare/compare_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace sluice {
namespace {

using Table = std::vector<std::vector<std::string>>;

std::string render_table(const Table& table) {
  std::vector<std::size_t> width;
  for (const auto& row : table) {
    width.resize(std::max(width.size(), row.size()));
    for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  }
  std::string out;
  for (const auto& row : table) {
    std::string line = " ";
    for (std::size_t i = 0; i < row.size(); ++i) {
      // Text columns (job, direction, metric, verdict) align left; numbers right.
      const bool left = i < 3 || i + 1 == row.size();
      line += " " + (left ? fmt::format("{:<{}}", row[i], width[i]) : fmt::format("{:>{}}", row[i], width[i]));
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::string differences_text(const std::vector<Difference>& diffs) {
  std::size_t width = 0;
  for (const Difference& d : diffs) width = std::max(width, d.what.size());
  std::string out;
  for (const Difference& d : diffs) out += fmt::format("  {:<{}}  {} -> {}\n", d.what, width, d.old_value, d.new_value);
  return out;
}

std::string comparison_text(const Comparison& c) {
  std::string out =
      fmt::format("old: {} ({} repetition{})\nnew: {} ({} repetition{})\n", c.old_name, c.old_repetitions,
                  c.old_repetitions == 1 ? "" : "s", c.new_name, c.new_repetitions, c.new_repetitions == 1 ? "" : "s");
  if (!c.environment.empty()) {
    out += "environment that differs:\n" + differences_text(c.environment);
  } else {
    out += "environment: the same in everything both recorded\n";
  }
  if (!c.environment_recorded) out += "  (a fio result records no environment: only the versions are compared)\n";
  if (!c.job_options.empty())
    out += "job options that differ (compared because of --force):\n" + differences_text(c.job_options);
  for (const std::string& caveat : c.caveats) out += "caveat: " + caveat + "\n";
  out += "\n";
  Table t = {{"job", "dir", "metric", "old", "new", "change", "p", "verdict"}};
  std::vector<std::string> reasons;
  for (const CompareRow& r : c.rows) {
    const Judgement& j = r.judgement;
    std::string verdict = verdict_name(j.verdict);
    if (j.verdict == Verdict::kNotApplicable) {
      auto it = std::find(reasons.begin(), reasons.end(), j.reason);
      if (it == reasons.end()) it = reasons.insert(reasons.end(), j.reason);
      verdict += fmt::format(" [{}]", it - reasons.begin() + 1);
    }
    t.push_back({r.job, r.direction.empty() ? "-" : r.direction, r.metric,
                 j.old_value ? format_metric_value(r.unit, *j.old_value) : "-",
                 j.new_value ? format_metric_value(r.unit, *j.new_value) : "-",
                 j.change_pct ? fmt::format("{:+.1f}%", *j.change_pct) : "-",
                 j.test ? fmt::format("{:.3g}", j.test->p) : "-", verdict});
  }
  out += render_table(t);
  for (std::size_t i = 0; i < reasons.size(); ++i) out += fmt::format("[{}] {}\n", i + 1, reasons[i]);
  for (const FailOnHit& hit : c.fail_on_hits) out += "fail-on: " + hit.line + "\n";
  return out;
}

nlohmann::json differences_json(const std::vector<Difference>& diffs) {
  nlohmann::json out = nlohmann::json::array();
  for (const Difference& d : diffs) out.push_back({{"what", d.what}, {"old", d.old_value}, {"new", d.new_value}});
  return out;
}

nlohmann::json hit_lines(const std::vector<FailOnHit>& hits) {
  nlohmann::json out = nlohmann::json::array();
  for (const FailOnHit& hit : hits) out.push_back(hit.line);
  return out;
}

nlohmann::json optional_json(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

const char* unit_name(MetricUnit unit) {
  switch (unit) {
    case MetricUnit::kIops:
      return "IOPS";
    case MetricUnit::kBytesPerSecond:
      return "bytes/s";
    case MetricUnit::kNanoseconds:
      return "ns";
    case MetricUnit::kFactor:
      break;
  }
  return "factor";
}

nlohmann::json row_json(const CompareRow& r) {
  const Judgement& j = r.judgement;
  nlohmann::json row = {{"job", r.job},
                        {"direction", r.direction.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.direction)},
                        {"metric", r.metric},
                        {"unit", unit_name(r.unit)},
                        {"better", r.higher_is_better ? "higher" : "lower"},
                        {"old_values", r.old_values},
                        {"new_values", r.new_values},
                        {"old", optional_json(j.old_value)},
                        {"new", optional_json(j.new_value)},
                        {"change_pct", optional_json(j.change_pct)},
                        {"verdict", verdict_name(j.verdict)},
                        {"reason", j.reason}};
  if (j.test) {
    row["p"] = j.test->p;
    row["u"] = j.test->u;
    row["test"] = j.test->exact ? "mann-whitney-u exact" : "mann-whitney-u normal approximation";
  } else {
    row["p"] = nullptr;
  }
  return row;
}

}  // namespace

std::string format_metric_value(MetricUnit unit, double value) {
  switch (unit) {
    case MetricUnit::kIops:
      return fmt::format("{:.0f} IOPS", value);
    case MetricUnit::kBytesPerSecond:
      return fmt::format("{:.1f} MiB/s", value / (1024.0 * 1024.0));
    case MetricUnit::kNanoseconds:
      if (value >= 1e6) return fmt::format("{:.2f} ms", value / 1e6);
      if (value >= 1e3) return fmt::format("{:.1f} us", value / 1e3);
      return fmt::format("{:.0f} ns", value);
    case MetricUnit::kFactor:
      break;
  }
  return fmt::format("{:.2f}x", value);
}

std::string render_compare_text(const CompareReport& report) {
  std::string out;
  for (std::size_t i = 0; i < report.comparisons.size(); ++i) {
    if (i > 0) out += "\n";
    out += comparison_text(report.comparisons[i]);
  }
  const VerdictSettings& v = report.options.verdict;
  out += fmt::format(
      "\nold and new are medians of the repetitions; change = (new - old) / old. better/worse: a "
      "two-sided Mann-Whitney U test\non the repetitions gives p < {:g} (--alpha) and the change is at "
      "least {:g}% (--noise); else within noise.\n",
      v.alpha, v.noise_pct);
  if (!report.options.fail_on.empty()) {
    out += report.failed() ? "fail-on: a rule fired: exit status 1\n" : "fail-on: no rule fired\n";
  }
  return out;
}

nlohmann::json compare_json(const CompareReport& report) {
  nlohmann::json comparisons = nlohmann::json::array();
  for (const Comparison& c : report.comparisons) {
    nlohmann::json rows = nlohmann::json::array();
    for (const CompareRow& r : c.rows) rows.push_back(row_json(r));
    comparisons.push_back({{"old", {{"name", c.old_name}, {"repetitions", c.old_repetitions}}},
                           {"new", {{"name", c.new_name}, {"repetitions", c.new_repetitions}}},
                           {"environment_recorded", c.environment_recorded},
                           {"environment_differences", differences_json(c.environment)},
                           {"job_option_differences", differences_json(c.job_options)},
                           {"rows", rows},
                           {"fail_on_hits", hit_lines(c.fail_on_hits)},
                           {"caveats", c.caveats}});
  }
  nlohmann::json rules = nlohmann::json::array();
  for (const FailRule& r : report.options.fail_on) rules.push_back(r.text);
  const VerdictSettings& v = report.options.verdict;
  nlohmann::json compare = {{"alpha", v.alpha},
                            {"noise_pct", v.noise_pct},
                            {"min_repetitions", v.min_repetitions},
                            {"forced", report.options.force},
                            {"fail_on", rules},
                            {"failed", report.failed()},
                            {"comparisons", comparisons}};
  return {{"sluice", {{"compare", compare}}}};
}

}  // namespace sluice
