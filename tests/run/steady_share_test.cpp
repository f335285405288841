// SteadyShare (steadystate under group_reporting): the group's counts are the sum of its jobs' slots, so a
// latency sample is the group's mean weighted by ios, and the first job to find the group steady records the
// block every job reports.
#include "run/steady_share.h"

#include <gtest/gtest.h>

#include <chrono>

#include "job/job_spec.h"

namespace sluice {
namespace {

using namespace std::chrono_literals;

constexpr std::uint64_t kShareSecondNs = 1'000'000'000;

TEST(SteadyShare, TheGroupsCountsAreTheSlotsAdded) {
  SteadyShare share(2);
  const std::size_t a = share.join();
  const std::size_t b = share.join();
  ASSERT_NE(a, b);
  share.publish(a, {4096 * 100, 100, 100 * 10'000.0, 100});
  share.publish(b, {4096 * 900, 900, 900 * 100.0, 900});
  const SteadyStateMonitor::Totals total = share.total();
  EXPECT_EQ(total.ios, 1000u);
  EXPECT_EQ(total.bytes, 4096u * 1000);
  EXPECT_EQ(total.clat_samples, 1000u);
  // Weighted by ios: (100 x 10,000 + 900 x 100) / 1000 = 1,090 ns, not the jobs' means averaged (5,050).
  EXPECT_DOUBLE_EQ(total.clat_sum_ns / static_cast<double>(total.clat_samples), 1090.0);
  share.publish(a, {4096 * 150, 150, 150 * 10'000.0, 150});  // a job's later counts replace its earlier ones
  EXPECT_EQ(share.total().ios, 1050u);
}

TEST(SteadyShare, AMonitorOnTheGroupsCountsSamplesTheGroupsMeanLatency) {
  JobSpec job;
  job.steady_state.ss_criterion = SteadyStateCriterion::kLat;
  job.steady_state.ss_limit = 10;
  job.steady_state.ss_limit_is_percent = true;
  job.steady_state.ss_duration = 2s;
  job.steady_state.ss_interval = 1s;
  SteadyShare share(2);
  const std::size_t a = share.join();
  const std::size_t b = share.join();
  SteadyStateMonitor monitor(job.steady_state, 0);
  monitor.update(0, share.total());
  for (std::uint64_t second = 1; second <= 2; ++second) {
    share.publish(a, {0, 100 * second, 100.0 * second * 10'000, 100 * second});
    share.publish(b, {0, 900 * second, 900.0 * second * 100, 900 * second});
    monitor.update(second * kShareSecondNs, share.total());
  }
  EXPECT_TRUE(monitor.attained());
  const nlohmann::json block = monitor.to_json();
  EXPECT_EQ(block.at("data").at("lat_mean"), 1090);
  EXPECT_EQ(block.at("data").at("iops_mean"), 1000);
}

TEST(SteadyShare, TheFirstBlockRecordedIsTheGroups) {
  SteadyShare share(2);
  EXPECT_FALSE(share.attained());
  EXPECT_TRUE(share.block().is_null());
  share.attain({{"attained", 1}, {"by", "first"}});
  share.attain({{"attained", 1}, {"by", "second"}});
  EXPECT_TRUE(share.attained());
  EXPECT_EQ(share.block().at("by"), "first");
}

}  // namespace
}  // namespace sluice
