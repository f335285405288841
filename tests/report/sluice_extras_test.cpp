// sluice's extension keys in the reports: queue_wait for open-loop jobs, rmw transactions for randrmw.
#include <gtest/gtest.h>

#include "report/reporters.h"
#include "report_test_support.h"

namespace sluice {
namespace {

JobResult open_loop_job() {
  JobResult job = test::make_job("ol", 1000, 0);
  job.settings.open_loop = true;
  for (int i = 0; i < 1000; ++i) job.dirs[0].queue_wait.record(5'000 + static_cast<std::uint64_t>(i));
  return job;
}

TEST(SluiceExtras, OpenLoopJobsCarryQueueWaitBesideLat) {
  const nlohmann::json doc = render_json(test::make_run({open_loop_job()}), false);
  const nlohmann::json& read = doc["jobs"][0]["read"];
  ASSERT_TRUE(read.contains("queue_wait_ns"));
  EXPECT_EQ(read["queue_wait_ns"]["N"], 1000);
  EXPECT_EQ(read["queue_wait_ns"]["min"], 5000);
  EXPECT_TRUE(read["queue_wait_ns"].contains("percentile"));
  EXPECT_TRUE(doc["sluice"]["jobs"][0]["open_loop"].get<bool>());
}

TEST(SluiceExtras, ClosedLoopJobsHaveNoQueueWait) {
  const nlohmann::json doc = render_json(test::make_run({test::make_job("cl", 10, 10)}), false);
  EXPECT_FALSE(doc["jobs"][0]["read"].contains("queue_wait_ns"));
  EXPECT_FALSE(doc["sluice"]["jobs"][0]["open_loop"].get<bool>());
  EXPECT_FALSE(doc["sluice"]["jobs"][0].contains("rmw"));
}

TEST(SluiceExtras, NormalOutputShowsQueueWaitForOpenLoop) {
  const std::string text = render_normal(test::make_run({open_loop_job()}));
  EXPECT_NE(text.find("queue_wait (nsec): min=5000, max=5999"), std::string::npos) << text;
  EXPECT_EQ(render_normal(test::make_run({test::make_job("cl", 10, 10)})).find("queue_wait"), std::string::npos);
}

TEST(SluiceExtras, RandRmwReportsTransactionsPerSecond) {
  JobResult job = test::make_job("rmw", 500, 500);
  job.settings.rw = "randrmw";
  job.rmw_transactions = 500;
  const nlohmann::json doc = render_json(test::make_run({job}), false);
  const nlohmann::json& rmw = doc["sluice"]["jobs"][0]["rmw"];
  EXPECT_EQ(rmw["transactions"], 500);
  EXPECT_DOUBLE_EQ(rmw["transactions_per_s"].get<double>(), 500.0 * 1e9 / static_cast<double>(job.runtime_ns));
  const std::string text = render_normal(test::make_run({job}));
  EXPECT_NE(text.find("rmw: transactions=500, transactions/s="), std::string::npos) << text;
}

}  // namespace
}  // namespace sluice
