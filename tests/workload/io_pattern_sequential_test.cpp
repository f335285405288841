#include <gtest/gtest.h>

#include "job/job_spec.h"
#include "workload/io_pattern.h"
#include "workload_test_helpers.h"

namespace sluice {
namespace {

using testing::drain;
using testing::job_for;
using testing::kKiB;
using testing::kMiB;
using testing::total_bytes;

TEST(IoPatternSequential, OffsetsIncreaseByBsAndStopAtRegionEnd) {
  const FileRegion region{8192, 10 * 4096 + 1000};  // the 1000-byte tail cannot hold a block
  IoPattern pattern(job_for(RwMode::kRead), {region}, 1);
  auto ios = drain(pattern);
  ASSERT_EQ(ios.size(), 10u);
  for (std::size_t i = 0; i < ios.size(); ++i) {
    EXPECT_EQ(ios[i].direction, Direction::kRead);
    EXPECT_EQ(ios[i].offset, 8192 + i * 4096);
    EXPECT_EQ(ios[i].length, 4096u);
  }
}

TEST(IoPatternSequential, WriteModeIssuesWrites) {
  IoPattern pattern(job_for(RwMode::kWrite), {{0, 16384}}, 1);
  auto ios = drain(pattern);
  ASSERT_EQ(ios.size(), 4u);
  for (const auto& io : ios) EXPECT_EQ(io.direction, Direction::kWrite);
}

TEST(IoPatternSequential, MixedModeKeepsOnePositionPerDirection) {
  JobSpec job = job_for(RwMode::kReadWrite);
  IoPattern pattern(job, {{0, 1 << 20}}, 5);
  std::uint64_t next_read = 0;
  std::uint64_t next_write = 0;
  for (const auto& io : drain(pattern)) {
    std::uint64_t& expected = io.direction == Direction::kRead ? next_read : next_write;
    EXPECT_EQ(io.offset, expected);
    expected += io.length;
  }
  EXPECT_GT(next_read, 0u);
  EXPECT_GT(next_write, 0u);
  EXPECT_EQ(next_read + next_write, 1u << 20);  // both directions together do `size` bytes
}

TEST(IoPatternSequential, OffsetModifierSkipsBytesAfterEachIo) {
  JobSpec job = job_for(RwMode::kWrite);
  job.workload.rw_sequential_run = 4096;  // rw=write:4k
  IoPattern pattern(job, {{0, 64 * 1024}}, 1);
  auto ios = drain(pattern);
  // As fio 3.33: size bytes still move, so past the end the file is gone over again from its start.
  ASSERT_EQ(ios.size(), 16u);
  for (std::size_t i = 0; i < ios.size(); ++i) EXPECT_EQ(ios[i].offset, (i % 8) * 8192);
  EXPECT_EQ(pattern.planned_bytes(), 64u * 1024);
}

// fio 3.33: rw=read:512k, bs=1m, size=128m reads 85 ios (87,040 KiB): after the io at 126 MiB the hole
// leads to 127.5 MiB, short of the file's end (no wrap), where no 1 MiB io fits, so the pass ends.
TEST(IoPatternSequential, HoleThatStopsShortOfTheFileEndEndsThePass) {
  JobSpec job = job_for(RwMode::kRead, kMiB);
  job.workload.rw_sequential_run = 512 * 1024;
  job.workload.norandommap = true;
  IoPattern pattern(job, {{0, 128 * kMiB, 128 * kMiB}}, 1);
  const auto ios = drain(pattern);
  ASSERT_EQ(ios.size(), 85u);
  EXPECT_EQ(total_bytes(ios), 87040u * 1024);
  for (std::size_t i = 0; i < ios.size(); ++i) EXPECT_EQ(ios[i].offset, i * (kMiB + 512 * 1024)) << "io " << i;
}

// An io that ends at the file's end ends the pass, whatever the hole (fio: 16 MiB of read:512k, bs=1m: 11 ios).
TEST(IoPatternSequential, IoEndingAtTheFileEndEndsThePassDespiteTheHole) {
  JobSpec job = job_for(RwMode::kRead, kMiB);
  job.workload.rw_sequential_run = 512 * 1024;
  IoPattern pattern(job, {{0, 16 * kMiB, 16 * kMiB}}, 1);
  EXPECT_EQ(drain(pattern).size(), 11u);
}

// The hole is measured against the whole file: with a file larger than the region the walk never wraps, and
// the pass ends at the region's end.
TEST(IoPatternSequential, HoleInsideALargerFileEndsAtTheRegionEnd) {
  JobSpec job = job_for(RwMode::kWrite);
  job.workload.rw_sequential_run = 4096;
  IoPattern pattern(job, {{0, 64 * kKiB, 1 * kMiB}}, 1);
  EXPECT_EQ(drain(pattern).size(), 8u);
}

TEST(IoPatternSequential, BackwardsModifierReadsFromTheEndTowardsTheStart) {
  JobSpec job = job_for(RwMode::kRead);
  job.workload.rw_sequential_run = 8192;  // rw=read:-8k with bs=4k: each io starts 4 KiB before the last one
  job.workload.rw_backwards = true;
  const FileRegion region{4096, 16 * 4096};
  IoPattern pattern(job, {region}, 1);
  auto ios = drain(pattern);
  ASSERT_EQ(ios.size(), 16u);  // size bounds the job: 16 blocks
  // fio's order: end - 8k first, then back 4 KiB per io; below the start it wraps to end - 8k again.
  const std::uint64_t expected[] = {14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 14};
  for (std::size_t i = 0; i < ios.size(); ++i) {
    EXPECT_EQ(ios[i].offset, region.start + expected[i] * 4096) << "io " << i;
    EXPECT_EQ(ios[i].length, 4096u);
  }
}

TEST(IoPatternSequential, BsrangeNeverCrossesTheRegionEnd) {
  JobSpec job = job_for(RwMode::kRead);
  job.workload.bsrange[0] = {4096, 65536};
  const FileRegion region{4096, 1000 * 4096 + 512};
  IoPattern pattern(job, {region}, 9);
  auto ios = drain(pattern);
  std::uint64_t expected_offset = region.start;
  for (const auto& io : ios) {
    EXPECT_EQ(io.offset, expected_offset);
    EXPECT_LE(io.offset + io.length, region.start + region.length);
    expected_offset += io.length;
  }
  EXPECT_EQ(total_bytes(ios), 1000u * 4096);  // the last ios shrink to fit; the 512-byte tail is left
}

TEST(IoPatternSequential, FilesAreServedRoundRobinEachFromItsOwnStart) {
  std::vector<FileRegion> regions{{0, 8 * 4096}, {1 << 20, 8 * 4096}, {4096, 8 * 4096}};
  IoPattern pattern(job_for(RwMode::kWrite), regions, 1);
  auto ios = drain(pattern);
  ASSERT_EQ(ios.size(), 24u);
  for (std::size_t i = 0; i < ios.size(); ++i) {
    const std::size_t file = i % 3;
    EXPECT_EQ(ios[i].file_index, static_cast<int>(file));
    EXPECT_EQ(ios[i].offset, regions[file].start + (i / 3) * 4096);
  }
}

TEST(IoPatternSequential, TimeBasedWrapsToTheRegionStart) {
  JobSpec job = job_for(RwMode::kRead);
  job.time.time_based = true;
  IoPattern pattern(job, {{4096, 4 * 4096}}, 1);
  auto ios = drain(pattern, 10);
  ASSERT_EQ(ios.size(), 10u);
  for (std::size_t i = 0; i < ios.size(); ++i) EXPECT_EQ(ios[i].offset, 4096 + (i % 4) * 4096);
  EXPECT_EQ(pattern.planned_bytes(), 0u);
}

}  // namespace
}  // namespace sluice
