#include "run/io_priorities.h"

#include <gtest/gtest.h>

#include <map>

#include "job/job_spec.h"

namespace sluice {
namespace {

// How many of `n` ios of `length` bytes each priority value got.
std::map<std::uint16_t, int> draw(IoPriorities& priorities, Direction d, std::uint64_t length, int n) {
  std::map<std::uint16_t, int> counts;
  for (int i = 0; i < n; ++i) counts[priorities.pick(d, length).value]++;
  return counts;
}

TEST(IoPriorities, PercentageDefaultsToTheRealtimeClass) {
  JobSpec job;
  job.workload.rw = RwMode::kRandRW;
  job.placement.cmdprio_percentage = {30, 0, 0};
  IoPriorities priorities(job.placement, job.workload, 7);
  const auto reads = draw(priorities, Direction::kRead, 4096, 10000);
  ASSERT_EQ(reads.size(), 2u);
  EXPECT_NEAR(reads.at(0x2000), 3000, 200);                              // class 1 level 0, fio's default
  EXPECT_EQ(draw(priorities, Direction::kWrite, 4096, 100).at(0), 100);  // 0 % of the writes
  EXPECT_EQ(priorities.values(Direction::kRead), (std::vector<std::uint16_t>{0, 0x2000}));
  EXPECT_TRUE(priorities.values(Direction::kWrite).empty());
}

TEST(IoPriorities, IndexesFollowTheValuesList) {
  JobSpec job;
  job.workload.rw = RwMode::kRandWrite;
  job.placement.ioprio_class = 2;
  job.placement.ioprio = 7;
  job.placement.cmdprio_percentage = {0, 100, 100};
  job.placement.cmdprio_class = {0, 3, 3};
  job.placement.cmdprio_level = {0, 2, 2};
  IoPriorities priorities(job.placement, job.workload, 1);
  const IoPriority p = priorities.pick(Direction::kWrite, 512);
  EXPECT_EQ(p.value, 0x6002);
  EXPECT_EQ(p.index, 1);
  EXPECT_EQ(priorities.values(Direction::kWrite), (std::vector<std::uint16_t>{0x4007, 0x6002}));
  EXPECT_TRUE(priorities.values(Direction::kRead).empty());  // the job does not read
}

TEST(IoPriorities, BssplitMatchesExactSizesAndSharesEntries) {
  JobSpec job;
  job.workload.rw = RwMode::kRandRead;
  // 4k: 25 % at 1/1, 75 % at 3/2 (sorted by size as fio); 64k: 50 % at cmdprio_class/cmdprio (1/0).
  job.placement.cmdprio_bssplit[0] = {{4096, 25, 0x2001}, {4096, 75, 0x6002}, {65536, 50, -1}};
  IoPriorities priorities(job.placement, job.workload, 3);
  const auto small = draw(priorities, Direction::kRead, 4096, 8000);
  EXPECT_NEAR(small.at(0x2001), 2000, 200);
  EXPECT_NEAR(small.at(0x6002), 6000, 200);
  EXPECT_EQ(small.count(0), 0u);
  const auto large = draw(priorities, Direction::kRead, 65536, 8000);
  EXPECT_NEAR(large.at(0x2000), 4000, 250);
  EXPECT_EQ(draw(priorities, Direction::kRead, 8192, 50).at(0), 50);  // a size without entries
  EXPECT_EQ(priorities.values(Direction::kRead), (std::vector<std::uint16_t>{0, 0x2001, 0x6002, 0x2000}));
  EXPECT_EQ(priorities.pick(Direction::kTrim, 4096).value, 0);
}

}  // namespace
}  // namespace sluice
