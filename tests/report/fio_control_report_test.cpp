// fio's unified_rw_reporting ("mixed"), the "steadystate" block and "global options" in sluice's reports.
#include <gtest/gtest.h>

#include "report/report_test_support.h"
#include "report/reporters.h"

namespace sluice {
namespace {

RunResult unified_run(const std::string& mode) {
  JobResult job = test::make_job("u", 100, 50);
  job.settings.unified_rw_reporting = true;
  job.options["unified_rw_reporting"] = mode;
  return test::make_run({job});
}

TEST(UnifiedRwReporting, JsonHasOnlyMixedLikeFio) {
  const nlohmann::json doc = render_json(unified_run("mixed"), false);
  const nlohmann::json& job = doc.at("jobs").at(0);
  ASSERT_TRUE(job.contains("mixed"));
  EXPECT_FALSE(job.contains("read"));
  EXPECT_FALSE(job.contains("write"));
  EXPECT_FALSE(job.contains("sync"));
  EXPECT_EQ(job.at("mixed").at("total_ios"), 150);
  EXPECT_EQ(job.at("mixed").at("io_bytes"), 150 * 4096);
  EXPECT_EQ(job.at("mixed").at("clat_ns").at("N"), 150);
}

TEST(UnifiedRwReporting, BothKeepsTheDirections) {
  const nlohmann::json job = render_json(unified_run("both"), false).at("jobs").at(0);
  EXPECT_TRUE(job.contains("read"));
  EXPECT_TRUE(job.contains("mixed"));
  EXPECT_EQ(job.at("read").at("total_ios"), 100);
}

TEST(UnifiedRwReporting, NormalOutputSaysMixed) {
  const std::string text = render_normal(unified_run("1"));
  EXPECT_NE(text.find("  mixed: IOPS="), std::string::npos) << text;
  EXPECT_NE(text.find("  MIXED: bw="), std::string::npos) << text;
  EXPECT_EQ(text.find("  read: IOPS="), std::string::npos) << text;
}

TEST(SteadyStateBlock, KeysInFiosOrder) {
  JobResult job = test::make_job("s", 10, 0);
  job.steadystate = {{"ss", "iops:10.000000%"},
                     {"duration", 2},
                     {"attained", 1},
                     {"criterion", "2.5%"},
                     {"max_deviation", 3.0},
                     {"slope", 0.0},
                     {"data", {{"bw_mean", 1}, {"iops_mean", 2}, {"iops", {1, 2}}, {"bw", {3, 4}}}}};
  const nlohmann::ordered_json doc = render_json_ordered(test::make_run({job}), false);
  const auto& ss = doc.at("jobs").at(0).at("steadystate");
  std::vector<std::string> keys;
  for (const auto& [key, value] : ss.items()) keys.push_back(key);
  EXPECT_EQ(keys,
            (std::vector<std::string>{"ss", "duration", "attained", "criterion", "max_deviation", "slope", "data"}));
}

TEST(SteadyStateBlock, NormalOutputHasFiosLine) {
  JobResult job = test::make_job("s", 10, 0);
  job.steadystate = {{"ss", "iops_slope:0.300000%"},
                     {"attained", 0},
                     {"criterion", "1.250000%"},
                     {"data", {{"bw_mean", 4096000}, {"iops_mean", 1000}}}};
  const std::string text = render_normal(test::make_run({job}));
  EXPECT_NE(text.find("  steadystate  : attained=no, bw="), std::string::npos) << text;
  EXPECT_NE(text.find("iops=1000, iops slope=1.250%"), std::string::npos) << text;
}

TEST(SteadyStateBlock, LatencyCriterionAddsFio342sDataAndLine) {
  JobResult job = test::make_job("s", 10, 0);
  job.steadystate = {
      {"ss", "lat:500.000000"},
      {"duration", 2},
      {"attained", 1},
      {"criterion", "12.000000"},
      {"max_deviation", 12.0},
      {"slope", 0.0},
      {"data",
       {{"bw_mean", 1}, {"iops_mean", 2}, {"lat_mean", 52}, {"lat_ns", {50, 54}}, {"iops", {1, 2}}, {"bw", {3, 4}}}}};
  const nlohmann::ordered_json doc = render_json_ordered(test::make_run({job}), false);
  std::vector<std::string> keys;
  for (const auto& [key, value] : doc.at("jobs").at(0).at("steadystate").at("data").items()) keys.push_back(key);
  EXPECT_EQ(keys, (std::vector<std::string>{"bw_mean", "iops_mean", "lat_mean", "lat_ns", "iops", "bw"}));
  const std::string text = render_normal(test::make_run({job}));
  EXPECT_NE(text.find("iops=2, lat=52nsec, lat mean dev=12.000\n"), std::string::npos) << text;
}

TEST(GlobalOptions, WrittenBeforeJobs) {
  RunResult run = test::make_run({test::make_job("g", 10, 0)});
  run.extra["global options"] = {{"bs", "8k"}};
  const nlohmann::ordered_json doc = render_json_ordered(run, false);
  std::vector<std::string> keys;
  for (const auto& [key, value] : doc.items()) keys.push_back(key);
  const auto global = std::find(keys.begin(), keys.end(), "global options");
  ASSERT_NE(global, keys.end());
  EXPECT_EQ(*(global + 1), "jobs");
  EXPECT_EQ(doc.at("global options").at("bs"), "8k");
  EXPECT_FALSE(doc.at("sluice").contains("global options"));
}

}  // namespace
}  // namespace sluice
