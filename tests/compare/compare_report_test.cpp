#include "compare/compare_report.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/error.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;

nlohmann::json doc(double iops, const std::string& iodepth = "1") {
  return {{"jobs",
           {{{"jobname", "j"},
             {"job options", {{"iodepth", iodepth}}},
             {"read",
              {{"total_ios", 100}, {"iops", iops}, {"bw_bytes", iops * 4096}, {"lat_ns", {{"mean", 1e9 / iops}}}}}}}},
          {"sluice", {{"version", "0.1.0"}, {"environment", {{"kernel_release", "6.1"}}}}}};
}

ResultSet set(const std::string& name, std::vector<double> iops, const std::string& iodepth = "1") {
  ResultSet s{name, "files", {}};
  for (double v : iops) s.repetitions.push_back(doc(v, iodepth));
  return s;
}

TEST(CompareReport, TextListsRowsAndFootnotesTheReasons) {
  const CompareReport r = compare_sets({set("a", {100, 101, 102, 103}), set("b", {120, 121})}, {});
  const std::string text = render_compare_text(r);
  EXPECT_THAT(text, HasSubstr("old: a (4 repetitions)\nnew: b (2 repetitions)\n"));
  EXPECT_THAT(text, HasSubstr("environment: the same in everything both recorded"));
  EXPECT_THAT(text, ::testing::ContainsRegex("j +read +iops +102 IOPS +120 IOPS +\\+18\\.7% +[0-9.]+ +n/a \\[1\\]"));
  EXPECT_THAT(text, HasSubstr("[1] cannot tell: 4 and 2 repetitions; a verdict needs at least 3 on each side\n"));
}

TEST(CompareReport, DifferentJobOptionsNeedForce) {
  const std::vector<ResultSet> sets = {set("a", {100}), set("b", {100}, "32")};
  try {
    compare_sets(sets, {});
    FAIL() << "no error";
  } catch (const UserError& e) {
    EXPECT_EQ(std::string(e.what()),
              "a and b ran different job options: job j: iodepth (1 -> 32); add --force to "
              "compare them anyway");
  }
  CompareOptions force;
  force.force = true;
  const CompareReport r = compare_sets(sets, force);
  EXPECT_THAT(render_compare_text(r),
              HasSubstr("job options that differ (compared because of --force):\n  job j: iodepth  1 -> 32\n"));
}

TEST(CompareReport, JsonCarriesEveryRepetitionAndTheVerdict) {
  CompareOptions options;
  options.fail_on = parse_fail_on({"iops:-5%"});
  const CompareReport r = compare_sets(
      {set("a", {100, 101, 102, 103}), set("b", {80, 81, 82, 83}), set("c", {100, 102, 101, 103})}, options);
  const nlohmann::json j = compare_json(r).at("sluice").at("compare");
  EXPECT_DOUBLE_EQ(j.at("alpha").get<double>(), 0.05);
  EXPECT_TRUE(j.at("failed").get<bool>());
  ASSERT_EQ(j.at("comparisons").size(), 2u);
  const nlohmann::json& row = j.at("comparisons").at(0).at("rows").at(0);
  EXPECT_EQ(row.at("metric"), "iops");
  EXPECT_EQ(row.at("better"), "higher");
  EXPECT_EQ(row.at("old_values").size(), 4u);
  EXPECT_EQ(row.at("verdict"), "worse");
  EXPECT_NEAR(row.at("p").get<double>(), 2.0 / 70.0, 1e-12);
  EXPECT_EQ(row.at("test"), "mann-whitney-u exact");
  EXPECT_EQ(j.at("comparisons").at(0).at("fail_on_hits").size(), 1u);
  EXPECT_EQ(j.at("comparisons").at(1).at("rows").at(0).at("verdict"), "within noise");
  EXPECT_TRUE(j.at("comparisons").at(1).at("fail_on_hits").empty());
}

TEST(CompareReport, ValuesCarryTheirUnits) {
  EXPECT_EQ(format_metric_value(MetricUnit::kIops, 1234.4), "1234 IOPS");
  EXPECT_EQ(format_metric_value(MetricUnit::kBytesPerSecond, 1048576.0 * 12.34), "12.3 MiB/s");
  EXPECT_EQ(format_metric_value(MetricUnit::kNanoseconds, 850), "850 ns");
  EXPECT_EQ(format_metric_value(MetricUnit::kNanoseconds, 85200), "85.2 us");
  EXPECT_EQ(format_metric_value(MetricUnit::kNanoseconds, 2330000), "2.33 ms");
  EXPECT_EQ(format_metric_value(MetricUnit::kFactor, 1.5), "1.50x");
}

TEST(CompareReport, NeedsTwoInputs) { EXPECT_THROW(compare_sets({set("a", {1})}, {}), UserError); }

}  // namespace
}  // namespace sluice
