#include "compare/compare_junit.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/junit_schema.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

nlohmann::json junit_doc(const std::string& job, double iops, double mean_ns) {
  return {
      {"timestamp", 1764866400},  // 2025-12-04T16:40:00Z
      {"jobs",
       {{{"jobname", job},
         {"job options", {{"iodepth", "1"}}},
         {"read", {{"total_ios", 100}, {"iops", iops}, {"bw_bytes", iops * 4096}, {"lat_ns", {{"mean", mean_ns}}}}}}}},
      {"sluice", {{"version", "0.1.0"}, {"environment", {{"kernel_release", "6.1"}}}}}};
}

ResultSet junit_set(const std::string& name, const std::string& job, std::vector<double> iops, double mean_ns = 1000) {
  ResultSet s{name, "files", {}};
  for (double v : iops) s.repetitions.push_back(junit_doc(job, v, mean_ns));
  return s;
}

CompareReport junit_report(const std::vector<ResultSet>& sets, const std::vector<std::string>& rules) {
  CompareOptions options;
  options.fail_on = parse_fail_on(rules);
  return compare_sets(sets, options);
}

using testing::expect_valid_junit;

TEST(CompareJunit, OneTestCasePerJobAndMetricWithAFailurePerBreach) {
  const CompareReport r = junit_report(
      {junit_set("a", "j", {100, 101, 102, 103}), junit_set("b", "j", {80, 81, 82, 83})}, {"iops:-5%", "bw:-10%"});
  const std::string xml = render_compare_junit(r, 0);
  EXPECT_THAT(xml, HasSubstr("<testsuites name=\"sluice compare\" tests=\"3\" failures=\"2\" errors=\"0\""));
  EXPECT_THAT(xml, HasSubstr("<testsuite name=\"b against a\" tests=\"3\" failures=\"2\" errors=\"0\" skipped=\"0\" "
                             "time=\"0\" timestamp=\"2025-12-04T16:40:00\">"));
  EXPECT_THAT(xml,
              HasSubstr("<testcase classname=\"j\" name=\"read iops\" time=\"0\">\n      <failure type=\"fail-on\" "
                        "message=\"j read iops -19.7% breaches --fail-on=iops:-5%: old 102 IOPS -&gt; new 82 IOPS\">"));
  EXPECT_THAT(xml,
              HasSubstr("message=\"j read bw -19.7% breaches --fail-on=bw:-10%: old 0.4 MiB/s -&gt; new 0.3 MiB/s\""));
  EXPECT_THAT(xml, HasSubstr("<testcase classname=\"j\" name=\"read mean\" time=\"0\">\n      <system-out>"));
  EXPECT_THAT(xml, HasSubstr("<property name=\"fail-on\" value=\"iops:-5%,bw:-10%\"/>"));
  expect_valid_junit(xml);
}

TEST(CompareJunit, NoBreachNoFailureAndNaRowsAreSkippedWithTheReason) {
  const CompareReport r = junit_report({junit_set("a", "j", {100, 101, 102, 103}),
                                        junit_set("b", "j", {100, 102, 101, 103}), junit_set("c", "j", {90, 91})},
                                       {"iops:-5%"});
  const std::string xml = render_compare_junit(r, 1764866400);
  EXPECT_THAT(xml, HasSubstr("<testsuites name=\"sluice compare\" tests=\"6\" failures=\"0\""));
  EXPECT_THAT(xml, Not(HasSubstr("<failure")));
  EXPECT_THAT(xml, HasSubstr("<testsuite name=\"c against a\" tests=\"3\" failures=\"0\" errors=\"0\" skipped=\"3\""));
  EXPECT_THAT(
      xml,
      HasSubstr("<skipped message=\"cannot tell: 4 and 2 repetitions; a verdict needs at least 3 on each side\"/>"));
  expect_valid_junit(xml);
}

TEST(CompareJunit, JobNamesWithMarkupQuotesControlsAndBadUtf8AreEscaped) {
  const std::string job = "<db & \"log\"> 'x'\x01\ttab\nline \xC3\xA9t\xC3\xA9 \xFF]]>";
  const CompareReport r = junit_report(
      {junit_set("a&b", job, {100, 101, 102, 103}), junit_set("<new>", job, {80, 81, 82, 83})}, {"iops:-5%"});
  const std::string xml = render_compare_junit(r, 0);
  EXPECT_THAT(xml, HasSubstr("classname=\"&lt;db &amp; &quot;log&quot;&gt; &apos;x&apos;\xEF\xBF\xBD&#9;tab&#10;line "
                             "\xC3\xA9t\xC3\xA9 \xEF\xBF\xBD]]&gt;\""));
  EXPECT_THAT(xml, HasSubstr("<testsuite name=\"&lt;new&gt; against a&amp;b\""));
  expect_valid_junit(xml);
}

TEST(CompareJunit, XmlEscapingKeepsTextAndReplacesWhatXmlCannotCarry) {
  EXPECT_EQ(xml_escaped("plain 1.5 us"), "plain 1.5 us");
  EXPECT_EQ(xml_escaped("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&apos;");
  EXPECT_EQ(xml_escaped(std::string("nul\0x", 5)), "nul\xEF\xBF\xBDx");
  EXPECT_EQ(xml_escaped("\xE2\x82\xAC \xF0\x9F\x92\xBE"), "\xE2\x82\xAC \xF0\x9F\x92\xBE");  // euro sign, floppy disk
  EXPECT_EQ(xml_escaped("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");                            // overlong '/'
  EXPECT_EQ(xml_escaped("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");            // a surrogate
  EXPECT_EQ(xml_escaped("\xEF\xBF\xBE"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");            // U+FFFE
  EXPECT_EQ(xml_escaped("cut \xE2\x82"), "cut \xEF\xBF\xBD\xEF\xBF\xBD");
}

}  // namespace
}  // namespace sluice
