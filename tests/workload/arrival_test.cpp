#include "workload/arrival.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "job/job_spec.h"

namespace sluice {
namespace {

constexpr std::uint64_t kStart = 1'000'000'000'000ull;

TEST(ArrivalSchedule, UnlimitedWithoutRates) {
  ArrivalSchedule schedule(PacingOptions{}, 1);
  EXPECT_FALSE(schedule.limited());
  schedule.start(kStart);
  EXPECT_EQ(schedule.next_arrival(Direction::kRead, 4096), 0u);
}

TEST(ArrivalSchedule, LinearRateIopsSpacesArrivalsExactly) {
  JobSpec job;
  job.pacing.rate_iops = {1000, 0, 0};
  ArrivalSchedule schedule(job.pacing, 1);
  EXPECT_TRUE(schedule.limited());
  EXPECT_TRUE(schedule.limited(Direction::kRead));
  EXPECT_FALSE(schedule.limited(Direction::kWrite));
  schedule.start(kStart);
  for (std::uint64_t k = 0; k < 10'000; ++k)
    ASSERT_EQ(schedule.next_arrival(Direction::kRead, 4096), kStart + k * 1'000'000);
}

TEST(ArrivalSchedule, ByteRateSpacesBySize) {
  JobSpec job;
  job.pacing.rate = {0, 1 << 20, 0};  // 1 MiB/s of writes: a 4 KiB write every 3.90625 ms
  ArrivalSchedule schedule(job.pacing, 1);
  schedule.start(kStart);
  EXPECT_EQ(schedule.next_arrival(Direction::kWrite, 4096), kStart);
  EXPECT_EQ(schedule.next_arrival(Direction::kWrite, 4096), kStart + 3'906'250);
  EXPECT_EQ(schedule.next_arrival(Direction::kWrite, 8192), kStart + 7'812'500);
  EXPECT_EQ(schedule.next_arrival(Direction::kWrite, 4096), kStart + 15'625'000);
}

TEST(ArrivalSchedule, DirectionsHaveIndependentSchedules) {
  JobSpec job;
  job.pacing.rate_iops = {100, 10, 0};
  ArrivalSchedule schedule(job.pacing, 1);
  schedule.start(kStart);
  schedule.next_arrival(Direction::kRead, 4096);
  EXPECT_EQ(schedule.next_arrival(Direction::kRead, 4096), kStart + 10'000'000);
  EXPECT_EQ(schedule.next_arrival(Direction::kWrite, 4096), kStart);
  EXPECT_EQ(schedule.next_arrival(Direction::kWrite, 4096), kStart + 100'000'000);
}

TEST(ArrivalSchedule, StricterOfRateAndRateIopsWins) {
  JobSpec job;
  job.pacing.rate_iops = {1000, 0, 0};   // 1 ms per io
  job.pacing.rate = {4096 * 100, 0, 0};  // 10 ms per 4 KiB io
  ArrivalSchedule schedule(job.pacing, 1);
  schedule.start(kStart);
  schedule.next_arrival(Direction::kRead, 4096);
  EXPECT_EQ(schedule.next_arrival(Direction::kRead, 4096), kStart + 10'000'000);
}

TEST(ArrivalSchedule, PoissonGapsHaveTheMeanAndUnitCv) {
  JobSpec job;
  job.pacing.rate_iops = {1000, 0, 0};
  job.pacing.rate_process = RateProcess::kPoisson;
  ArrivalSchedule schedule(job.pacing, 99);
  schedule.start(kStart);
  const int n = 200'000;
  std::uint64_t previous = schedule.next_arrival(Direction::kRead, 4096);
  double sum = 0.0;
  double sum_squares = 0.0;
  for (int i = 0; i < n; ++i) {
    const std::uint64_t now = schedule.next_arrival(Direction::kRead, 4096);
    ASSERT_GE(now, previous);
    const double gap = static_cast<double>(now - previous);
    sum += gap;
    sum_squares += gap * gap;
    previous = now;
  }
  const double mean = sum / n;
  const double cv = std::sqrt(sum_squares / n - mean * mean) / mean;
  EXPECT_NEAR(mean, 1e6, 1e6 * 0.01);
  EXPECT_NEAR(cv, 1.0, 0.02);
}

TEST(ArrivalSchedule, StartReanchorsTheSchedule) {
  JobSpec job;
  job.pacing.rate_iops = {1000, 0, 0};
  ArrivalSchedule schedule(job.pacing, 1);
  schedule.start(kStart);
  schedule.next_arrival(Direction::kRead, 4096);
  schedule.next_arrival(Direction::kRead, 4096);
  schedule.start(2 * kStart);
  EXPECT_EQ(schedule.next_arrival(Direction::kRead, 4096), 2 * kStart);
}

}  // namespace
}  // namespace sluice
