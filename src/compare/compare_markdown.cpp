#include "compare/compare_markdown.h"

#include <fmt/format.h>

#include <algorithm>

#include "compare/compare_report.h"

namespace sluice {
namespace {

std::string plural(std::size_t n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

// "**2 better, 1 worse, 9 no clear change** (3 of them could not be judged)".
std::string headline(const Comparison& c) {
  std::size_t better = 0, worse = 0, unclear = 0, not_judged = 0;
  for (const CompareRow& r : c.rows) {
    switch (r.judgement.verdict) {
      case Verdict::kBetter:
        ++better;
        break;
      case Verdict::kWorse:
        ++worse;
        break;
      case Verdict::kNotApplicable:
        ++not_judged;
        ++unclear;
        break;
      case Verdict::kWithinNoise:
        ++unclear;
        break;
    }
  }
  std::string out = fmt::format("**{} better, {} worse, {} no clear change**", better, worse, unclear);
  if (not_judged > 0) out += fmt::format(" ({} could not be judged: n/a)", plural(not_judged, "metric", "metrics"));
  out += fmt::format(" of {}", plural(c.rows.size(), "metric", "metrics"));
  if (!c.fail_on_hits.empty())
    out += fmt::format("; :x: {}", plural(c.fail_on_hits.size(), "--fail-on breach", "--fail-on breaches"));
  return out + "\n";
}

std::string verdict_cell(const Judgement& j) {
  switch (j.verdict) {
    case Verdict::kBetter:
      return "**better**";
    case Verdict::kWorse:
      return "**worse**";
    case Verdict::kWithinNoise:
    case Verdict::kNotApplicable:
      break;
  }
  return verdict_name(j.verdict);
}

std::string breach_cell(const Comparison& c, std::size_t index) {
  std::string out;
  for (const FailOnHit& hit : c.fail_on_hits) {
    if (hit.row == index) out += (out.empty() ? ":x: " : ", ") + markdown_cell(hit.rule);
  }
  return out;
}

std::string table(const Comparison& c) {
  std::string out = "| job | metric | A | B | change | p | verdict | fail-on |\n";
  out += "|:--|:--|--:|--:|--:|--:|:--|:--|\n";
  for (std::size_t i = 0; i < c.rows.size(); ++i) {
    const CompareRow& r = c.rows[i];
    const Judgement& j = r.judgement;
    out += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} |\n", markdown_cell(r.job),
                       markdown_cell(r.direction.empty() ? r.metric : r.direction + " " + r.metric),
                       j.old_value ? format_metric_value(r.unit, *j.old_value) : "-",
                       j.new_value ? format_metric_value(r.unit, *j.new_value) : "-",
                       j.change_pct ? fmt::format("{:+.1f}%", *j.change_pct) : "-",
                       j.test ? fmt::format("{:.3g}", j.test->p) : "-", verdict_cell(j), breach_cell(c, i));
  }
  return out;
}

std::string caveats(const Comparison& c) {
  std::vector<std::string> items;
  for (const Difference& d : c.environment) {
    items.push_back(fmt::format("environment differs: {}: {} → {}", markdown_cell(d.what), markdown_cell(d.old_value),
                                markdown_cell(d.new_value)));
  }
  if (!c.environment_recorded) items.push_back("a fio result records no environment: only the versions were compared");
  for (const Difference& d : c.job_options) {
    items.push_back(fmt::format("job options differ (compared because of --force): {}: {} → {}", markdown_cell(d.what),
                                markdown_cell(d.old_value), markdown_cell(d.new_value)));
  }
  for (const std::string& caveat : c.caveats) items.push_back(markdown_cell(caveat));
  std::vector<std::string> reasons;
  for (const CompareRow& r : c.rows) {
    if (r.judgement.verdict != Verdict::kNotApplicable) continue;
    if (std::find(reasons.begin(), reasons.end(), r.judgement.reason) == reasons.end())
      reasons.push_back(r.judgement.reason);
  }
  for (const std::string& reason : reasons) items.push_back("n/a: " + markdown_cell(reason));
  if (items.empty()) return {};
  std::string out = "\nCaveats:\n";
  for (const std::string& item : items) out += "- " + item + "\n";
  return out;
}

}  // namespace

std::string markdown_cell(const std::string& text) {
  std::string out;
  for (const char ch : text) {
    switch (ch) {
      case '|':
      case '\\':
      case '*':
      case '_':
      case '`':
      case '[':
      case ']':
      case '~':
      case '#':
        out += '\\';
        out += ch;
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '\n':
      case '\r':
      case '\t':
        out += ' ';
        break;
      default:
        out += ch;
    }
  }
  return out;
}

std::string render_compare_markdown(const CompareReport& report) {
  std::string out;
  for (const Comparison& c : report.comparisons) {
    out += fmt::format("### sluice compare: {} against {}\n\nA: {} ({}) · B: {} ({})\n\n", markdown_cell(c.new_name),
                       markdown_cell(c.old_name), markdown_cell(c.old_name),
                       plural(c.old_repetitions, "repetition", "repetitions"), markdown_cell(c.new_name),
                       plural(c.new_repetitions, "repetition", "repetitions"));
    out += headline(c) + "\n" + table(c) + caveats(c) + "\n";
  }
  const VerdictSettings& v = report.options.verdict;
  out += fmt::format(
      "<sub>A and B are medians of the repetitions; change = (B − A) / A. better/worse: a two-sided "
      "Mann-Whitney U test on the repetitions gives p &lt; {:g} and the change is at least {:g}%; "
      "else within noise.</sub>\n",
      v.alpha, v.noise_pct);
  if (!report.options.fail_on.empty()) {
    std::string rules;
    for (const FailRule& r : report.options.fail_on) rules += (rules.empty() ? "" : ",") + r.text;
    out += report.failed() ? fmt::format("\n:x: **--fail-on={}: a rule fired** (exit status 1)\n", markdown_cell(rules))
                           : fmt::format("\n:white_check_mark: --fail-on={}: no rule fired\n", markdown_cell(rules));
  }
  return out;
}

}  // namespace sluice
