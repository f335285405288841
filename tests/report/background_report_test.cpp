// Background jobs are left out of the group's headline and reported apart.
#include <gtest/gtest.h>

#include "report/report_math.h"
#include "report/reporters.h"
#include "report_test_support.h"

namespace sluice {
namespace {

RunResult run_with_background(bool group_reporting) {
  JobResult bg = test::make_job("bg", 0, 1000);
  bg.settings.background = true;
  return test::make_run({test::make_job("a", 1000, 0), test::make_job("b", 1000, 0), bg}, group_reporting);
}

TEST(BackgroundReport, GroupTotalsLeaveBackgroundOut) {
  const RunResult run = run_with_background(false);
  const auto totals = report::group_totals(run.groups[0]);
  EXPECT_FALSE(totals[1].active);  // only the background job wrote
  EXPECT_EQ(totals[0].io_bytes, 2000u * 4096);
}

TEST(BackgroundReport, GroupReportingAggregateLeavesBackgroundOut) {
  const auto entries = report::reported_jobs(run_with_background(true).groups[0]);
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].jobs, 2u);
  EXPECT_EQ(entries[0].job.dirs[1].ios, 0u);
}

TEST(BackgroundReport, JsonListsBackgroundAfterTheGroupWithMarker) {
  const nlohmann::json doc = render_json(run_with_background(true), false);
  ASSERT_EQ(doc.at("jobs").size(), 2u);
  EXPECT_EQ(doc["jobs"][1].at("jobname"), "bg");
  EXPECT_EQ(doc["jobs"][1].at("sluice").at("role"), "background");
  EXPECT_FALSE(doc["jobs"][0].contains("sluice"));
  EXPECT_EQ(doc.at("sluice").at("jobs").at(1).at("role"), "background");
  EXPECT_EQ(doc["sluice"]["jobs"][0].at("role"), "foreground");
  EXPECT_EQ(doc["sluice"]["jobs"][1].at("series").at("samples").size(), 2u);
}

TEST(BackgroundReport, NormalOutputHasBackgroundBlockAfterGroupStatus) {
  const std::string text = render_normal(run_with_background(false));
  const auto status = text.find("Run status group 0");
  const auto block = text.find("Background jobs of group 0");
  ASSERT_NE(status, std::string::npos);
  ASSERT_NE(block, std::string::npos);
  EXPECT_LT(status, block);
  EXPECT_NE(text.find("bg: write bw=", block), std::string::npos);
  EXPECT_NE(text.find("per 1 s (MiB/s):", block), std::string::npos);
  EXPECT_EQ(text.find("  WRITE: bw="), std::string::npos);  // not in the group's status lines
}

}  // namespace
}  // namespace sluice
