#include <gtest/gtest.h>

#include "job/job_spec.h"
#include "workload/io_pattern.h"
#include "workload_test_helpers.h"

namespace sluice {
namespace {

using testing::drain;
using testing::job_for;
using testing::total_bytes;

using testing::kMiB;

TEST(IoPatternTermination, SizeEndsAfterTheRegion) {
  IoPattern pattern(job_for(RwMode::kRandWrite), {{0, kMiB}}, 1);
  auto ios = drain(pattern);
  EXPECT_EQ(ios.size(), 256u);
  EXPECT_EQ(total_bytes(ios), kMiB);
  EXPECT_EQ(pattern.planned_bytes(), kMiB);
  NextIo io;
  EXPECT_FALSE(pattern.next(io));  // stays finished
}

TEST(IoPatternTermination, LoopsRepeatTheRegion) {
  JobSpec job = job_for(RwMode::kRead);
  job.time.loops = 3;
  IoPattern pattern(job, {{0, kMiB}}, 1);
  auto ios = drain(pattern);
  EXPECT_EQ(ios.size(), 768u);
  EXPECT_EQ(ios[256].offset, 0u);
  EXPECT_EQ(pattern.planned_bytes(), 3 * kMiB);
}

// unlink_each_loop's boundary: exactly the first io of each later loop says so.
TEST(IoPatternTermination, TheFirstIoOfEachLaterLoopSaysSo) {
  JobSpec job = job_for(RwMode::kRandWrite);
  job.time.loops = 3;
  IoPattern pattern(job, {{0, kMiB}}, 1);
  const auto ios = drain(pattern);
  ASSERT_EQ(ios.size(), 768u);
  for (std::size_t i = 0; i < ios.size(); ++i) EXPECT_EQ(ios[i].starts_loop, i == 256 || i == 512) << i;
  // With io_size a loop is io_size bytes, positions going on (fio): loops start at 512 KiB and at 0 again.
  job.workload.rw = RwMode::kWrite;
  job.time.io_size = kMiB / 2;
  IoPattern sized(job, {{0, kMiB}}, 1);
  const auto sized_ios = drain(sized);
  ASSERT_EQ(sized_ios.size(), 384u);
  for (std::size_t i = 0; i < sized_ios.size(); ++i) EXPECT_EQ(sized_ios[i].starts_loop, i == 128 || i == 256) << i;
  EXPECT_EQ(sized_ios[128].offset, kMiB / 2);
  EXPECT_EQ(sized_ios[256].offset, 0u);
}

TEST(IoPatternTermination, IoSizeLargerThanRegionWraps) {
  JobSpec job = job_for(RwMode::kWrite);
  job.time.io_size = 5 * kMiB / 2;
  IoPattern pattern(job, {{0, kMiB}}, 1);
  auto ios = drain(pattern);
  EXPECT_EQ(total_bytes(ios), 5 * kMiB / 2);
  EXPECT_EQ(ios.size(), 640u);
  EXPECT_EQ(ios[256].offset, 0u);
}

TEST(IoPatternTermination, IoSizeSmallerThanRegionStopsEarly) {
  JobSpec job = job_for(RwMode::kRandRead);
  job.time.io_size = 100 * 1024;
  IoPattern pattern(job, {{0, kMiB}}, 1);
  EXPECT_EQ(drain(pattern).size(), 25u);
}

TEST(IoPatternTermination, LastIoNeverOvershootsTheByteBudget) {
  JobSpec job = job_for(RwMode::kRead);
  job.time.io_size = 10 * 1024;  // two 4 KiB ios fit; a third would overshoot
  IoPattern pattern(job, {{0, kMiB}}, 1);
  EXPECT_EQ(total_bytes(drain(pattern)), 8u * 1024);
}

TEST(IoPatternTermination, NumberIosCapsTheCount) {
  JobSpec job = job_for(RwMode::kRandRead);
  job.time.number_ios = 100;
  IoPattern pattern(job, {{0, kMiB}}, 1);
  EXPECT_EQ(drain(pattern).size(), 100u);
  EXPECT_EQ(pattern.planned_bytes(), 100u * 4096);
}

TEST(IoPatternTermination, TimeBasedNeverEnds) {
  JobSpec job = job_for(RwMode::kRandRead);
  job.time.time_based = true;
  IoPattern pattern(job, {{0, 64 * 4096}}, 1);
  EXPECT_EQ(drain(pattern, 6400).size(), 6400u);
  EXPECT_EQ(pattern.planned_bytes(), 0u);
}

TEST(IoPatternTermination, MixedRandomTotalCountsBothDirections) {
  IoPattern pattern(job_for(RwMode::kRandRW), {{0, 4 * kMiB}}, 1);
  auto ios = drain(pattern);
  EXPECT_EQ(ios.size(), 1024u);
  EXPECT_EQ(total_bytes(ios), 4 * kMiB);
}

TEST(IoPatternTermination, EmptyRegionListEndsAtOnce) {
  IoPattern pattern(job_for(RwMode::kRead), {}, 1);
  NextIo io;
  EXPECT_FALSE(pattern.next(io));
}

TEST(IoPatternTermination, RegionSmallerThanABlockEndsAtOnceEvenTimeBased) {
  JobSpec job = job_for(RwMode::kRandRead, 8192);
  job.time.time_based = true;
  IoPattern pattern(job, {{0, 4096}}, 1);
  NextIo io;
  EXPECT_FALSE(pattern.next(io));
}

TEST(IoPatternTermination, MaxBlockSizeIsTheLargestOfTheActiveDirections) {
  JobSpec job = job_for(RwMode::kRandRW);
  job.workload.bs = {4096, 65536, 1 << 20};  // trim is not active in randrw
  IoPattern pattern(job, {{0, kMiB}}, 1);
  EXPECT_EQ(pattern.max_block_size(), 65536u);
}

}  // namespace
}  // namespace sluice
