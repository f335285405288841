#include "run/open_loop_queue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "job/job_spec.h"
#include "workload/arrival.h"

namespace sluice {
namespace {

constexpr std::uint64_t kQueueStart = 1'000'000'000'000ull;

JobSpec open_loop_job(std::uint64_t iops, RateProcess process = RateProcess::kLinear) {
  JobSpec job;
  job.pacing.open_loop = true;
  job.pacing.rate_iops = {iops, iops, iops};
  job.pacing.rate_process = process;
  return job;
}

TEST(OpenLoopQueue, DisabledWithoutOpenLoop) {
  JobSpec job = open_loop_job(1000);
  job.pacing.open_loop = false;
  const OpenLoopQueue queue(job.pacing, 4);
  EXPECT_FALSE(queue.enabled());
  EXPECT_EQ(queue.backlog(Direction::kRead, 4096, kQueueStart, kQueueStart + 1'000'000'000), 0u);
}

TEST(OpenLoopQueue, QueueWaitIsStartMinusArrival) {
  OpenLoopQueue queue(open_loop_job(1000).pacing, 2);
  EXPECT_EQ(queue.start(1, kQueueStart, kQueueStart + 250), 250u);
  EXPECT_EQ(queue.arrival_of(1), kQueueStart);
  EXPECT_EQ(queue.start(0, kQueueStart + 10, kQueueStart + 10), 0u);
  EXPECT_EQ(queue.start(0, kQueueStart + 10, kQueueStart + 5), 0u);  // never negative
}

TEST(OpenLoopQueue, BacklogCountsDueArrivalsOfALinearSchedule) {
  const OpenLoopQueue queue(open_loop_job(1000).pacing, 1);  // one arrival per ms
  EXPECT_EQ(queue.backlog(Direction::kRead, 4096, kQueueStart, kQueueStart), 1u);
  EXPECT_EQ(queue.backlog(Direction::kRead, 4096, kQueueStart, kQueueStart + 999'999), 1u);
  EXPECT_EQ(queue.backlog(Direction::kRead, 4096, kQueueStart, kQueueStart + 1'000'000), 2u);
  EXPECT_EQ(queue.backlog(Direction::kRead, 4096, kQueueStart, kQueueStart + 10'000'000'000ull), 10'001u);
  EXPECT_EQ(queue.backlog(Direction::kRead, 4096, kQueueStart + 5, kQueueStart), 0u);  // head not yet due
}

TEST(OpenLoopQueue, BacklogUsesTheByteRateWhenStricter) {
  JobSpec job;
  job.pacing.open_loop = true;
  job.pacing.rate = {4096 * 100, 0, 0};  // 100 ios/s of 4 KiB
  const OpenLoopQueue queue(job.pacing, 1);
  EXPECT_EQ(queue.backlog(Direction::kRead, 4096, kQueueStart, kQueueStart + 1'000'000'000), 101u);
}

TEST(OpenLoopQueue, OverflowsPastTenMillionArrivals) {
  const OpenLoopQueue queue(open_loop_job(1'000'000).pacing, 1);  // one arrival per us
  EXPECT_FALSE(queue.overflowing(Direction::kRead, 4096, kQueueStart, kQueueStart + 9'000'000'000ull));
  EXPECT_TRUE(queue.overflowing(Direction::kRead, 4096, kQueueStart, kQueueStart + 11'000'000'000ull));
  const std::string message =
      queue.overflow_message(Direction::kRead, 4096, kQueueStart, kQueueStart + 11'000'000'000ull);
  EXPECT_NE(message.find("open_loop"), std::string::npos) << message;
  EXPECT_NE(message.find("1000000"), std::string::npos) << message;
}

// A synthetic target: `slots` servers with a fixed service time, fed by the open-loop schedule exactly as
// the io loop does (an arrival starts when it is due and a slot is free, oldest first). Returns the
// queue wait of each arrival in order.
std::vector<std::uint64_t> simulate(std::uint64_t iops, std::uint32_t slots, std::uint64_t service_ns, int arrivals,
                                    RateProcess process = RateProcess::kLinear) {
  const JobSpec job = open_loop_job(iops, process);
  ArrivalSchedule schedule(job.pacing, 42);
  OpenLoopQueue queue(job.pacing, slots);
  schedule.start(kQueueStart);
  std::vector<std::uint64_t> free_at(slots, kQueueStart);
  std::vector<std::uint64_t> waits;
  for (int i = 0; i < arrivals; ++i) {
    const std::uint64_t arrival = schedule.next_arrival(Direction::kRead, 4096);
    const auto slot = static_cast<std::uint32_t>(std::min_element(free_at.begin(), free_at.end()) - free_at.begin());
    const std::uint64_t start = std::max(arrival, free_at[slot]);
    waits.push_back(queue.start(slot, arrival, start));
    EXPECT_EQ(queue.arrival_of(slot), arrival);
    free_at[slot] = start + service_ns;
  }
  return waits;
}

TEST(OpenLoopQueue, BelowCapacityNothingWaits) {
  // 4 slots x 1 ms service = 4000 ios/s capacity; 2000 arrivals/s.
  const std::vector<std::uint64_t> waits = simulate(2000, 4, 1'000'000, 10'000);
  EXPECT_EQ(*std::max_element(waits.begin(), waits.end()), 0u);
}

TEST(OpenLoopQueue, AboveCapacityQueueWaitGrowsWithTheRun) {
  // Capacity 4000 ios/s, 12000 arrivals/s: the queue grows by 8000 arrivals per second, so the wait of
  // arrival k grows as k * (1/4000 - 1/12000) s.
  const std::vector<std::uint64_t> waits = simulate(12'000, 4, 1'000'000, 12'000);
  EXPECT_LT(waits[100], waits[6000]);
  EXPECT_LT(waits[6000], waits[11'999]);
  const double expected_last = 11'999 * (1.0 / 4000 - 1.0 / 12'000) * 1e9;
  EXPECT_NEAR(static_cast<double>(waits.back()), expected_last, expected_last * 0.01);
}

TEST(OpenLoopQueue, PoissonArrivalsBelowCapacityWaitRarely) {
  const std::vector<std::uint64_t> waits = simulate(1000, 4, 1'000'000, 20'000, RateProcess::kPoisson);
  const auto waited = std::count_if(waits.begin(), waits.end(), [](std::uint64_t w) { return w > 0; });
  EXPECT_LT(waited, 1000);  // bursts make a few (about 2%) wait, but the queue does not build up
  EXPECT_LT(*std::max_element(waits.begin(), waits.end()), 10'000'000u);
}

}  // namespace
}  // namespace sluice
