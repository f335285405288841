// ss=lat and ss=lat_slope (fio 3.42) in SteadyStateMonitor: each interval's sample is the mean completion
// latency of the ios completed in it (whole ns, 0 when none), judged as fio judges iops and bw.
#include "run/steady_state_monitor.h"

#include <gtest/gtest.h>

#include <chrono>
#include <vector>

#include "job/job_spec.h"

namespace sluice {
namespace {

using namespace std::chrono_literals;

constexpr std::uint64_t kOneSecondNs = 1'000'000'000;

JobSpec lat_job(SteadyStateCriterion criterion, double limit, bool percent) {
  JobSpec job;
  job.steady_state.ss_criterion = criterion;
  job.steady_state.ss_limit = limit;
  job.steady_state.ss_limit_is_percent = percent;
  job.steady_state.ss_duration = 3s;
  job.steady_state.ss_interval = 1s;
  return job;
}

// Feeds one interval per mean latency: 1000 ios of `mean` ns each, a second apart, after the baseline at 0.
bool feed(SteadyStateMonitor& monitor, const std::vector<double>& means) {
  SteadyStateMonitor::Totals totals;
  bool attained = monitor.update(0, totals);
  for (std::size_t i = 0; i < means.size(); ++i) {
    totals.ios += 1000;
    totals.bytes += 1000 * 4096;
    totals.clat_sum_ns += 1000 * means[i];
    totals.clat_samples += 1000;
    attained = monitor.update((i + 1) * kOneSecondNs, totals);
  }
  return attained;
}

TEST(SteadyStateLatency, SamplesAreEachIntervalsWholeMeanClat) {
  SteadyStateMonitor monitor(lat_job(SteadyStateCriterion::kLat, 0, false).steady_state, 0);
  EXPECT_FALSE(feed(monitor, {100.6, 200.2, 250.9}));
  const nlohmann::json ss = monitor.to_json();
  EXPECT_EQ(ss.at("ss"), "lat:0.000000");
  EXPECT_EQ(ss.at("data").at("lat_ns"), nlohmann::json({100, 200, 250}));
  EXPECT_EQ(ss.at("data").at("lat_mean"), 183u);  // (100 + 200 + 250) / 3, truncated as fio's
  // max |x - mean| = |100 - 183.33|
  EXPECT_NEAR(ss.at("max_deviation").get<double>(), 83.333, 0.001);
  EXPECT_EQ(ss.at("criterion"), "83.333333");
  EXPECT_EQ(ss.at("data").at("iops"), nlohmann::json({1000, 1000, 1000}));
}

TEST(SteadyStateLatency, DeviationWithinAnAbsoluteLimitInNanosecondsEnds) {
  SteadyStateMonitor monitor(lat_job(SteadyStateCriterion::kLat, 10, false).steady_state, 0);
  EXPECT_TRUE(feed(monitor, {1000, 1005, 995}));  // deviations 0, 5, 5 around 1000
  SteadyStateMonitor strict(lat_job(SteadyStateCriterion::kLat, 4, false).steady_state, 0);
  EXPECT_FALSE(feed(strict, {1000, 1005, 995}));
}

TEST(SteadyStateLatency, PercentLimitIsOfTheMeanLatency) {
  SteadyStateMonitor monitor(lat_job(SteadyStateCriterion::kLat, 1, true).steady_state, 0);
  EXPECT_TRUE(feed(monitor, {1000, 1005, 995}));  // 0.5 % of 1000
  EXPECT_EQ(monitor.to_json().at("criterion"), "0.500000%");
}

TEST(SteadyStateLatency, SlopeIsPerSecondOverTheWindow) {
  SteadyStateMonitor rising(lat_job(SteadyStateCriterion::kLatSlope, 50, false).steady_state, 0);
  EXPECT_FALSE(feed(rising, {1000, 1100, 1200}));  // +100 ns per second
  EXPECT_NEAR(rising.to_json().at("slope").get<double>(), 100.0, 1e-9);
  SteadyStateMonitor flat(lat_job(SteadyStateCriterion::kLatSlope, 50, false).steady_state, 0);
  EXPECT_TRUE(feed(flat, {1000, 1020, 1040}));  // +20 ns per second
  EXPECT_EQ(flat.to_json().at("ss"), "lat_slope:50.000000");
}

// As fio, the lists hold the whole window (3 intervals here), those not sampled yet as 0, and the means are
// over the whole window.
TEST(SteadyStateLatency, AnIntervalWithoutCompletionsSamplesZeroAndTheWindowIsListedWhole) {
  SteadyStateMonitor monitor(lat_job(SteadyStateCriterion::kLat, 0, false).steady_state, 0);
  SteadyStateMonitor::Totals totals;
  monitor.update(0, totals);
  monitor.update(kOneSecondNs, totals);  // nothing completed
  totals.ios = 10;
  totals.clat_sum_ns = 10 * 901.0;
  totals.clat_samples = 10;
  monitor.update(2 * kOneSecondNs, totals);
  const nlohmann::json data = monitor.to_json().at("data");
  EXPECT_EQ(data.at("lat_ns"), nlohmann::json({0, 901, 0}));
  EXPECT_EQ(data.at("lat_mean"), 300u);  // 901 / 3
  EXPECT_EQ(data.at("iops"), nlohmann::json({0, 10, 0}));
  EXPECT_EQ(data.at("iops_mean"), 3u);
}

TEST(SteadyStateLatency, OtherCriteriaHaveNoLatencyData) {
  SteadyStateMonitor monitor(lat_job(SteadyStateCriterion::kIops, 0, false).steady_state, 0);
  feed(monitor, {100, 100, 100});
  EXPECT_FALSE(monitor.to_json().at("data").contains("lat_ns"));
  EXPECT_FALSE(monitor.to_json().at("data").contains("lat_mean"));
}

}  // namespace
}  // namespace sluice
