#include "compare/compare_junit.h"

#include <fmt/format.h>

#include <ctime>

#include "compare/compare_report.h"

namespace sluice {
namespace {

constexpr const char* kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// The length of the UTF-8 sequence starting at text[i] that XML 1.0 allows, or 0 when it is not one.
std::size_t xml_char_length(const std::string& text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  std::size_t length = 0;
  std::uint32_t code = 0;
  if (lead < 0x80) return lead >= 0x20 || lead == '\t' || lead == '\n' || lead == '\r' ? 1 : 0;
  if ((lead & 0xE0) == 0xC0) {
    length = 2;
    code = lead & 0x1F;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3;
    code = lead & 0x0F;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4;
    code = lead & 0x07;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  static constexpr std::uint32_t kShortest[] = {0, 0, 0x80, 0x800, 0x10000};
  const bool allowed = code >= kShortest[length] && code <= 0x10FFFF && !(code >= 0xD800 && code <= 0xDFFF) &&
                       code != 0xFFFE && code != 0xFFFF;
  return allowed ? length : 0;
}

std::string utc_timestamp(std::int64_t seconds) {
  const std::time_t t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &tm);
  return text;
}

std::string case_name(const CompareRow& row) {
  return row.direction.empty() ? row.metric : row.direction + " " + row.metric;
}

std::string value_or_dash(const CompareRow& row, const std::optional<double>& v) {
  return v ? format_metric_value(row.unit, *v) : std::string("-");
}

// "old 102 IOPS, new 81 IOPS, change -20.6%, p = 0.0286: worse" (the names are the suite's properties).
std::string row_summary(const CompareRow& row) {
  const Judgement& j = row.judgement;
  return fmt::format("old {}, new {}, change {}, p = {}: {}", value_or_dash(row, j.old_value),
                     value_or_dash(row, j.new_value), j.change_pct ? fmt::format("{:+.1f}%", *j.change_pct) : "-",
                     j.test ? fmt::format("{:.3g}", j.test->p) : "-", verdict_name(j.verdict));
}

std::string failure_element(const CompareRow& row, const FailOnHit& hit) {
  const Judgement& j = row.judgement;
  const std::string message =
      fmt::format("{} {} {:+.1f}% breaches --fail-on={}: old {} -> new {}", row.job, case_name(row),
                  j.change_pct.value_or(0), hit.rule, value_or_dash(row, j.old_value), value_or_dash(row, j.new_value));
  return fmt::format("      <failure type=\"fail-on\" message=\"{}\">{}\n{}</failure>\n", xml_escaped(message),
                     xml_escaped(hit.line), xml_escaped(row_summary(row) + "; " + j.reason));
}

std::string testcase_element(const Comparison& c, std::size_t index) {
  const CompareRow& row = c.rows[index];
  std::string out = fmt::format("    <testcase classname=\"{}\" name=\"{}\" time=\"0\">\n", xml_escaped(row.job),
                                xml_escaped(case_name(row)));
  for (const FailOnHit& hit : c.fail_on_hits) {
    if (hit.row == index) out += failure_element(row, hit);
  }
  if (row.judgement.verdict == Verdict::kNotApplicable) {
    out += fmt::format("      <skipped message=\"{}\"/>\n", xml_escaped(row.judgement.reason));
  }
  out += fmt::format("      <system-out>{}</system-out>\n", xml_escaped(row_summary(row)));
  return out + "    </testcase>\n";
}

bool row_failed(const Comparison& c, std::size_t index) {
  for (const FailOnHit& hit : c.fail_on_hits) {
    if (hit.row == index) return true;
  }
  return false;
}

// What the table cannot show: what differs between the runs and the repetitions that did not end cleanly.
std::string suite_output(const Comparison& c) {
  std::string out;
  for (const Difference& d : c.environment)
    out += fmt::format("environment: {}: {} -> {}\n", d.what, d.old_value, d.new_value);
  for (const Difference& d : c.job_options)
    out += fmt::format("job option (--force): {}: {} -> {}\n", d.what, d.old_value, d.new_value);
  for (const std::string& caveat : c.caveats) out += "caveat: " + caveat + "\n";
  return out;
}

std::string testsuite_element(const CompareReport& report, const Comparison& c, std::int64_t now_seconds,
                              std::size_t& failures) {
  std::size_t suite_failures = 0, suite_skipped = 0;
  std::string cases;
  for (std::size_t i = 0; i < c.rows.size(); ++i) {
    if (row_failed(c, i)) ++suite_failures;
    if (c.rows[i].judgement.verdict == Verdict::kNotApplicable) ++suite_skipped;
    cases += testcase_element(c, i);
  }
  failures += suite_failures;
  std::string rules;
  for (const FailRule& r : report.options.fail_on) rules += (rules.empty() ? "" : ",") + r.text;
  const VerdictSettings& v = report.options.verdict;
  std::string out = fmt::format(
      "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" time=\"0\" "
      "timestamp=\"{}\">\n",
      xml_escaped(c.new_name + " against " + c.old_name), c.rows.size(), suite_failures, suite_skipped,
      utc_timestamp(c.new_timestamp.value_or(now_seconds)));
  out += "    <properties>\n";
  const std::pair<const char*, std::string> properties[] = {{"old", c.old_name},
                                                            {"new", c.new_name},
                                                            {"old_repetitions", std::to_string(c.old_repetitions)},
                                                            {"new_repetitions", std::to_string(c.new_repetitions)},
                                                            {"alpha", fmt::format("{:g}", v.alpha)},
                                                            {"noise", fmt::format("{:g}%", v.noise_pct)},
                                                            {"fail-on", rules}};
  for (const auto& [name, value] : properties) {
    out += fmt::format("      <property name=\"{}\" value=\"{}\"/>\n", name, xml_escaped(value));
  }
  out += "    </properties>\n" + cases;
  const std::string output = suite_output(c);
  if (!output.empty()) out += "    <system-out>" + xml_escaped(output) + "</system-out>\n";
  return out + "  </testsuite>\n";
}

}  // namespace

std::string xml_escaped(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = xml_char_length(text, i);
    if (length == 0) {
      out += kReplacement;
      ++i;
      continue;
    }
    if (length > 1) {
      out.append(text, i, length);
      i += length;
      continue;
    }
    switch (text[i]) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      case '\t':
        out += "&#9;";
        break;
      case '\n':
        out += "&#10;";
        break;
      case '\r':
        out += "&#13;";
        break;
      default:
        out += text[i];
    }
    ++i;
  }
  return out;
}

std::string render_compare_junit(const CompareReport& report, std::int64_t now_seconds) {
  std::size_t tests = 0, failures = 0;
  std::string suites;
  for (const Comparison& c : report.comparisons) {
    tests += c.rows.size();
    suites += testsuite_element(report, c, now_seconds, failures);
  }
  // No skipped count here: Jenkins' schema has none on <testsuites>; each <testsuite> carries its own.
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<testsuites name=\"sluice compare\" tests=\"{}\" failures=\"{}\" errors=\"0\" time=\"0\">\n{}"
      "</testsuites>\n",
      tests, failures, suites);
}

}  // namespace sluice
