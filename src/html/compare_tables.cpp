#include "html/compare_tables.h"

#include <fmt/format.h>

#include "compare/compare_report.h"
#include "html/svg_text.h"

namespace sluice::html {
namespace {

std::string differences_table(const std::vector<Difference>& diffs, const char* what) {
  if (diffs.empty()) return {};
  std::string out = fmt::format("<table class=\"environment\">\n<tr><th>{}</th><th>old</th><th>new</th></tr>\n", what);
  for (const Difference& d : diffs) {
    out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td></tr>\n", escape(d.what), escape(d.old_value),
                       escape(d.new_value));
  }
  return out + "</table>\n";
}

const char* row_class(Verdict verdict) {
  switch (verdict) {
    case Verdict::kBetter:
      return " class=\"better\"";
    case Verdict::kWorse:
      return " class=\"worse\"";
    default:
      return "";
  }
}

std::string comparison_html(const Comparison& c) {
  std::string out = fmt::format("<h3>{} against {}</h3>\n<p class=\"meta\">{} and {} repetitions</p>\n",
                                escape(c.new_name), escape(c.old_name), c.new_repetitions, c.old_repetitions);
  out += differences_table(c.environment, "environment that differs");
  out += differences_table(c.job_options, "job option that differs");
  out +=
      "<table class=\"verdicts\">\n<tr><th>job</th><th>dir</th><th>metric</th><th>old</th><th>new</th>"
      "<th>change</th><th>p</th><th>verdict</th></tr>\n";
  for (const CompareRow& r : c.rows) {
    const Judgement& j = r.judgement;
    out += fmt::format(
        "<tr{}><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
        "<td title=\"{}\">{}</td></tr>\n",
        row_class(j.verdict), escape(r.job), escape(r.direction.empty() ? "-" : r.direction), escape(r.metric),
        j.old_value ? escape(format_metric_value(r.unit, *j.old_value)) : "-",
        j.new_value ? escape(format_metric_value(r.unit, *j.new_value)) : "-",
        j.change_pct ? fmt::format("{:+.1f}%", *j.change_pct) : "-", j.test ? fmt::format("{:.3g}", j.test->p) : "-",
        escape(j.reason), verdict_name(j.verdict));
  }
  return out + "</table>\n";
}

}  // namespace

std::string compare_tables(const CompareReport& report) {
  if (report.comparisons.empty()) return {};
  std::string out;
  for (const Comparison& c : report.comparisons) out += comparison_html(c);
  const VerdictSettings& v = report.options.verdict;
  out += fmt::format(
      "<p class=\"meta\">old and new are medians of the repetitions. better/worse (coloured): a "
      "two-sided Mann-Whitney U test on the repetitions gives p &lt; {:g} and the change is at least "
      "{:g}%; otherwise within noise, or n/a when the repetitions cannot tell (hover for the reason; "
      "sluice compare prints them).</p>\n",
      v.alpha, v.noise_pct);
  return out;
}

}  // namespace sluice::html
