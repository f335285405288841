// The selftest's verdicts, the values it reads from result documents, and its report.
#include "selftest/selftest_report.h"

#include <gtest/gtest.h>

#include "selftest/selftest_measure.h"

namespace sluice {
namespace {

SelftestCheck relative(double truth, double tolerance) {
  SelftestCheck c;
  c.method = "run psync, 4 KiB randread, depth 1: mean latency";
  c.measure = Measure::kReadLatencyMean;
  c.truth = truth;
  c.tolerance = tolerance;
  c.why = "the path";
  return c;
}

TEST(SelftestVerdict, RelativeToleranceIsInclusiveAndTwoSided) {
  const SelftestCheck c = relative(1000, 0.10);
  EXPECT_TRUE(agrees_with_truth(c, 1000));
  EXPECT_TRUE(agrees_with_truth(c, 1100));
  EXPECT_TRUE(agrees_with_truth(c, 900));
  EXPECT_FALSE(agrees_with_truth(c, 1100.5));
  EXPECT_FALSE(agrees_with_truth(c, 899));
}

TEST(SelftestVerdict, KneeMustBeTheFirstDoublingAtOrPastTheTruth) {
  SelftestCheck c;
  c.rule = Tolerance::kKneeRange;
  c.truth = 6;
  EXPECT_FALSE(agrees_with_truth(c, 4));
  EXPECT_TRUE(agrees_with_truth(c, 8));
  EXPECT_FALSE(agrees_with_truth(c, 12));
  EXPECT_EQ(format_tolerance(c), "6 to 11");
}

TEST(SelftestVerdict, ThrashingIsExact) {
  SelftestCheck c;
  c.rule = Tolerance::kExact;
  c.measure = Measure::kThrashing;
  EXPECT_TRUE(agrees_with_truth(c, 0));
  EXPECT_FALSE(agrees_with_truth(c, 1));
}

TEST(SelftestMeasure, ReadsFioDocumentsAndCapacitySections) {
  const nlohmann::json run = nlohmann::json::parse(
      R"({"jobs":[{"error":0,"read":{"iops":9700.5,"lat_ns":{"mean":3.3e6}},"write":{"iops":0}}]})");
  std::string why;
  EXPECT_EQ(read_measure(run, Measure::kReadIops, why), 9700.5);
  EXPECT_EQ(read_measure(run, Measure::kReadLatencyMean, why), 3.3e6);
  EXPECT_FALSE(read_measure(run, Measure::kWriteLatencyMean, why));
  EXPECT_EQ(why, "the result has no write.lat_ns");
  const nlohmann::json capacity =
      nlohmann::json::parse(R"({"sluice":{"capacity":{"iops":9650,"knee":{"concurrency":8},"thrashing":null}}})");
  EXPECT_EQ(read_measure(capacity, Measure::kCapacityIops, why), 9650);
  EXPECT_EQ(read_measure(capacity, Measure::kKneeConcurrency, why), 8);
  EXPECT_EQ(read_measure(capacity, Measure::kThrashing, why), 0);
  const nlohmann::json failed = nlohmann::json::parse(R"({"jobs":[{"error":5,"read":{"iops":0}}]})");
  EXPECT_FALSE(read_measure(failed, Measure::kReadIops, why));
  EXPECT_EQ(why, "the job failed (error 5)");
}

TEST(SelftestMeasure, P99ConcurrencyLintAndQuickClass) {
  std::string why;
  const nlohmann::json run = nlohmann::json::parse(
      R"({"jobs":[{"error":0,"read":{"lat_ns":{"mean":4.1e6,"percentile":{"99.000000":5300000}}}}],
          "sluice":{"warnings":[{"code":"short-runtime"},{"code":"small-test-area"}],
                    "capacity":{"concurrency":16},"quick":{"behaves_like":{"class":"sas15k"}}}})");
  EXPECT_EQ(read_measure(run, Measure::kReadLatencyP99, why), 5.3e6);
  EXPECT_EQ(read_measure(run, Measure::kCapacityConcurrency, why), 16);
  EXPECT_EQ(read_measure(run, Measure::kLintSmallArea, why), 1);
  EXPECT_EQ(read_measure(run, Measure::kQuickClass, why), 2);  // ramdisk, ssd, sas15k, sata7k
  EXPECT_EQ(format_measure(Measure::kQuickClass, 2), "sas15k");
  const nlohmann::json quiet = nlohmann::json::parse(
      R"({"jobs":[{"error":0,"read":{"lat_ns":{"mean":4.1e6}}}],
          "sluice":{"warnings":[],"quick":{"behaves_like":{"class":null,"missing":"the budget ran out"}}}})");
  EXPECT_EQ(read_measure(quiet, Measure::kLintSmallArea, why), 0);
  EXPECT_FALSE(read_measure(quiet, Measure::kReadLatencyP99, why));
  EXPECT_EQ(why, "the result has no read.lat_ns.percentile");
  EXPECT_FALSE(read_measure(quiet, Measure::kQuickClass, why));
  EXPECT_EQ(why, "the result has no sluice.quick.behaves_like.class (the budget ran out)");
}

TEST(SelftestMeasure, PreconditionsFirstRoundAndSteadyWindow) {
  const nlohmann::json doc = nlohmann::json::parse(R"({"sluice":{"precondition":{"steady":true,"rounds":[
      {"iops":9700},{"iops":9000},{"iops":2600},{"iops":2500},{"iops":2400},{"iops":2500},{"iops":2500}]}}})");
  std::string why;
  EXPECT_EQ(read_measure(doc, Measure::kFirstRoundIops, why), 9700);
  EXPECT_EQ(read_measure(doc, Measure::kSteadyIops, why), 2500);  // the last 5 rounds
  nlohmann::json unsteady = doc;
  unsteady["sluice"]["precondition"]["steady"] = false;
  EXPECT_FALSE(read_measure(unsteady, Measure::kSteadyIops, why));
  EXPECT_EQ(why, "precondition never reached a steady state (7 rounds)");
}

TEST(SelftestMeasure, CompareVerdictOfARow) {
  const nlohmann::json doc = nlohmann::json::parse(R"({"sluice":{"compare":{"comparisons":[{"rows":[
      {"job":"fsync","direction":"write","metric":"iops","verdict":"better"},
      {"job":"fsync","direction":"write","metric":"p99","verdict":"worse"}]}]}}})");
  std::string why;
  EXPECT_EQ(read_verdict(doc, "fsync", "write", "iops", why), 1);
  EXPECT_EQ(read_verdict(doc, "fsync", "write", "p99", why), -1);
  EXPECT_FALSE(read_verdict(doc, "read", "read", "iops", why));
  EXPECT_STREQ(verdict_word(0), "within noise");
}

TEST(SelftestMeasure, FindsTheDocumentAfterWarnings) {
  const auto doc = parse_result_document("fio: warning: something\n{\"jobs\": []}\n");
  ASSERT_TRUE(doc);
  EXPECT_TRUE((*doc)["jobs"].is_array());
  EXPECT_FALSE(parse_result_document("no document"));
  EXPECT_FALSE(parse_result_document("{ truncated"));
}

SelftestSummary summary_with(bool agrees) {
  SelftestSummary s;
  s.labs.push_back({"ssd", "/dev/loop7", "path 40 us absorbed"});
  SelftestRow row;
  row.lab = "ssd";
  row.check = relative(819'531, 0.15);
  row.measured = agrees ? 830'000 : 9'860'000;
  row.fio = 825'000;
  row.agrees = agrees;
  s.rows.push_back(row);
  SelftestRow failed;
  failed.lab = "ssd";
  failed.check = relative(1000, 0.1);
  failed.failure = "sluice: exit status 1: cannot open";
  if (!agrees) s.rows.push_back(failed);
  s.fio = true;
  return s;
}

TEST(SelftestReport, TableSaysEachVerdictAndTheConclusion) {
  const std::string good = render_selftest_text(summary_with(true));
  EXPECT_NE(good.find("lab ssd on /dev/loop7"), std::string::npos) << good;
  EXPECT_NE(good.find("819.53 us"), std::string::npos) << good;
  EXPECT_NE(good.find("(+1.3%)"), std::string::npos) << good;
  EXPECT_NE(good.find("agrees [1]"), std::string::npos) << good;
  EXPECT_NE(good.find("[1] the path"), std::string::npos) << good;
  EXPECT_NE(good.find("all 1 rows agree"), std::string::npos) << good;
  EXPECT_TRUE(all_agree(summary_with(true)));
  const std::string bad = render_selftest_text(summary_with(false));
  EXPECT_NE(bad.find("DISAGREES"), std::string::npos) << bad;
  EXPECT_NE(bad.find("FAILED"), std::string::npos) << bad;
  EXPECT_NE(bad.find("cannot open"), std::string::npos) << bad;
  EXPECT_NE(bad.find("2 of 2 rows disagree"), std::string::npos) << bad;
  EXPECT_FALSE(all_agree(summary_with(false)));
}

TEST(SelftestReport, JsonHasTheIssuesFields) {
  const nlohmann::json j = selftest_json(summary_with(false));
  ASSERT_EQ(j["rows"].size(), 2u);
  const nlohmann::json& row = j["rows"][0];
  for (const char* key : {"method", "truth", "measured", "tolerance", "agrees", "fio", "unit", "why"}) {
    EXPECT_TRUE(row.contains(key)) << key;
  }
  EXPECT_EQ(row["unit"], "ns");
  EXPECT_FALSE(row["agrees"].get<bool>());
  EXPECT_TRUE(j["rows"][1]["measured"].is_null());
  EXPECT_EQ(j["rows"][1]["failure"], "sluice: exit status 1: cannot open");
  EXPECT_FALSE(j["agrees"].get<bool>());
}

TEST(SelftestReport, ALabWithoutRowsOfItsOwnHasNoTableHeader) {
  SelftestSummary s = summary_with(true);
  s.labs.push_back({"iscsi-1g", "/dev/loop8", ""});  // compared only: its rows are under "compare"
  const std::string text = render_selftest_text(s);
  EXPECT_EQ(text.find("lab iscsi-1g"), std::string::npos) << text;
  std::size_t headers = 0;
  for (std::size_t at = text.find("  method "); at != std::string::npos; at = text.find("  method ", at + 1)) ++headers;
  EXPECT_EQ(headers, 1u) << text;
  EXPECT_EQ(selftest_json(s)["labs"].size(), 2u);  // the JSON still lists the lab
}

TEST(SelftestReport, ABusyMachineIsSaid) {
  SelftestSummary s = summary_with(true);
  s.busy_before = 0.05;
  EXPECT_EQ(render_selftest_text(s).find("the machine was busy"), std::string::npos);
  s.busy_after = 0.5;
  EXPECT_NE(render_selftest_text(s).find("the machine was busy (50%"), std::string::npos);
  EXPECT_EQ(selftest_json(s)["cpu_busy_after"], 0.5);
}

TEST(SelftestReport, InterruptedHasNoVerdict) {
  SelftestSummary s = summary_with(true);
  s.interrupted = true;
  EXPECT_FALSE(all_agree(s));
  EXPECT_NE(render_selftest_text(s).find("no verdict"), std::string::npos);
}

}  // namespace
}  // namespace sluice
