#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <map>
#include <set>

#include "job/job_spec.h"
#include "support/sanitizers.h"
#include "workload/io_pattern.h"
#include "workload_test_helpers.h"

namespace sluice {
namespace {

using testing::drain;
using testing::job_for;
using testing::total_bytes;

TEST(IoPatternRandom, MapTouchesEachBlockExactlyOncePerPass) {
  const std::vector<FileRegion> regions{
      {0, 1000 * 4096}, {(1 << 20) + 7 * 4096, 777 * 4096}, {0, 64 * 4096}, {0, 4096}, {8192, 4097 * 4096}};
  for (const auto& region : regions) {
    IoPattern pattern(job_for(RwMode::kRandRead), {region}, 42);
    auto ios = drain(pattern);
    const std::uint64_t blocks = region.length / 4096;
    ASSERT_EQ(ios.size(), blocks) << "region length " << region.length;
    std::set<std::uint64_t> offsets;
    for (const auto& io : ios) {
      EXPECT_EQ((io.offset - region.start) % 4096, 0u);
      EXPECT_LT(io.offset, region.start + region.length);
      offsets.insert(io.offset);
    }
    EXPECT_EQ(offsets.size(), blocks) << "region length " << region.length;
  }
}

TEST(IoPatternRandom, MapResetsForEachLoop) {
  JobSpec job = job_for(RwMode::kRandWrite);
  job.time.loops = 3;
  const std::uint64_t blocks = 300;
  IoPattern pattern(job, {{0, blocks * 4096}}, 3);
  auto ios = drain(pattern);
  ASSERT_EQ(ios.size(), 3 * blocks);
  for (int pass = 0; pass < 3; ++pass) {
    std::set<std::uint64_t> offsets;
    for (std::uint64_t i = 0; i < blocks; ++i) offsets.insert(ios[pass * blocks + i].offset);
    EXPECT_EQ(offsets.size(), blocks) << "pass " << pass;
  }
}

TEST(IoPatternRandom, RandomOrderIsNotSequential) {
  IoPattern pattern(job_for(RwMode::kRandRead), {{0, 1000 * 4096}}, 42);
  auto ios = drain(pattern);
  int ascending = 0;
  for (std::size_t i = 1; i < ios.size(); ++i) ascending += ios[i].offset == ios[i - 1].offset + 4096;
  EXPECT_LT(ascending, 50);
}

TEST(IoPatternRandom, NoRandomMapRepeatsAndCoversUniformly) {
  JobSpec job = job_for(RwMode::kRandRead);
  job.workload.norandommap = true;
  job.time.time_based = true;
  const int blocks = 100;
  IoPattern pattern(job, {{0, blocks * 4096}}, 8);
  auto ios = drain(pattern, 100'000);
  std::set<std::uint64_t> first_pass;
  for (int i = 0; i < blocks; ++i) first_pass.insert(ios[i].offset);
  EXPECT_LT(first_pass.size(), static_cast<std::size_t>(blocks));  // repeats within a region's worth
  std::vector<double> counts(blocks, 0.0);
  for (const auto& io : ios) counts[io.offset / 4096] += 1.0;
  const double expected = static_cast<double>(ios.size()) / blocks;
  double chi_square = 0.0;
  for (double c : counts) chi_square += (c - expected) * (c - expected) / expected;
  EXPECT_LT(chi_square, 99 + 5 * 14.1);  // 99 degrees of freedom: mean 99, sd ~14
}

TEST(IoPatternRandom, BlockalignIsRespectedWithoutMap) {
  JobSpec job = job_for(RwMode::kRandRead);
  job.workload.norandommap = true;
  job.workload.blockalign[0] = 16384;
  job.time.time_based = true;
  const FileRegion region{4096, 1 << 20};
  IoPattern pattern(job, {region}, 2);
  for (const auto& io : drain(pattern, 10'000)) EXPECT_EQ((io.offset - region.start) % 16384, 0u);
}

TEST(IoPatternRandom, BlockalignIsRespectedWithMap) {
  JobSpec job = job_for(RwMode::kRandWrite);
  job.workload.blockalign[1] = 16384;
  IoPattern pattern(job, {{0, 1 << 20}}, 2);
  auto ios = drain(pattern);
  ASSERT_EQ(ios.size(), (1u << 20) / 16384);  // only aligned blocks can be used; each once
  std::set<std::uint64_t> offsets;
  for (const auto& io : ios) {
    EXPECT_EQ(io.offset % 16384, 0u);
    offsets.insert(io.offset);
  }
  EXPECT_EQ(offsets.size(), ios.size());
}

TEST(IoPatternRandom, NoIoCrossesTheRegionEnd) {
  for (bool norandommap : {false, true}) {
    JobSpec job = job_for(RwMode::kRandRead);
    job.workload.bsrange[0] = {4096, 131072};
    job.workload.norandommap = norandommap;
    job.time.time_based = true;
    const FileRegion region{12288, (1 << 20) + 12288};
    IoPattern pattern(job, {region}, 4);
    for (const auto& io : drain(pattern, 20'000)) {
      ASSERT_GE(io.offset, region.start);
      ASSERT_LE(io.offset + io.length, region.start + region.length);
    }
  }
}

TEST(IoPatternRandom, MapWithBsrangeCoversTheRegionWithoutOverlap) {
  JobSpec job = job_for(RwMode::kRandRead);
  job.workload.bsrange[0] = {4096, 65536};
  const std::uint64_t length = 4096 * 5000;
  IoPattern pattern(job, {{0, length}}, 6);
  auto ios = drain(pattern);
  std::vector<int> touched(length / 4096, 0);
  for (const auto& io : ios) {
    for (std::uint64_t b = io.offset / 4096; b < (io.offset + io.length) / 4096; ++b) ++touched[b];
  }
  EXPECT_EQ(total_bytes(ios), length);
  EXPECT_EQ(std::count(touched.begin(), touched.end(), 1), static_cast<long>(touched.size()));
}

TEST(IoPatternRandom, OffsetModifierRunsNiosSequentiallyAfterEachSeek) {
  JobSpec job = job_for(RwMode::kRandRead);
  job.workload.rw_sequential_run = 8;  // rw=randread:8
  job.workload.norandommap = true;
  job.time.time_based = true;
  IoPattern pattern(job, {{0, std::uint64_t{1} << 30}}, 5);
  auto ios = drain(pattern, 800);
  int continued = 0;
  int seeks_that_continued = 0;
  for (std::size_t i = 1; i < ios.size(); ++i) {
    const bool follows = ios[i].offset == ios[i - 1].offset + ios[i - 1].length;
    if (i % 8 != 0)
      continued += follows;
    else
      seeks_that_continued += follows;
  }
  EXPECT_EQ(continued, 700);
  EXPECT_LE(seeks_that_continued, 1);
}

TEST(IoPatternRandom, TimeBasedMapStartsANewPassWhenFull) {
  JobSpec job = job_for(RwMode::kRandRead);
  job.time.time_based = true;
  const std::uint64_t blocks = 500;
  IoPattern pattern(job, {{0, blocks * 4096}}, 1);
  auto ios = drain(pattern, 2 * blocks);
  ASSERT_EQ(ios.size(), 2 * blocks);
  std::map<std::uint64_t, int> counts;
  for (const auto& io : ios) ++counts[io.offset];
  EXPECT_EQ(counts.size(), blocks);
  for (const auto& [offset, count] : counts) EXPECT_EQ(count, 2) << offset;
}

double thread_cpu_ns() {
  timespec ts{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

TEST(IoPatternRandom, NextWithMapIsFast) {
#if SLUICE_TEST_ASAN || !defined(__OPTIMIZE__)
  const std::uint64_t calls = 1'000'000;
  const double bound_ns = 5000;  // sanitizer or debug build: only catch pathological slowness
#else
  const std::uint64_t calls = 1'000'000;
  const double bound_ns = 1000;  // typically well under 100 ns; loose so it cannot flake
#endif
  JobSpec job = job_for(RwMode::kRandRead);
  job.time.time_based = true;
  // 256 Ki blocks: ~4 full passes of the map in the optimized build. The slow cases are the ends of passes
  // (few free blocks left) and the reset between them; a cost that grows with the map (a scan for a free
  // block) is still tens of microseconds a call at this size, far above the bound. (It was 1 Mi blocks and
  // 10 million calls: 0.5 s for the same verdict.)
  IoPattern pattern(job, {{0, std::uint64_t{1} << 30}}, 1);
  NextIo io;
  std::uint64_t checksum = 0;
  // This thread's CPU time, not wall time: on a busy machine (load 10 on 2 cores) the loop waits for a CPU
  // most of the time, which says nothing about the cost of next().
  const double start_ns = thread_cpu_ns();
  for (std::uint64_t i = 0; i < calls; ++i) {
    pattern.next(io);
    checksum += io.offset;
  }
  const double cpu_ns = thread_cpu_ns() - start_ns;
  EXPECT_NE(checksum, 0u);
  EXPECT_LT(cpu_ns / static_cast<double>(calls), bound_ns);
}

}  // namespace
}  // namespace sluice

namespace sluice {
namespace {

TEST(IoPatternRandomFiles, EachFileIsCoveredOnceAndServedRoundRobin) {
  const std::vector<FileRegion> regions{{0, 100 * 4096}, {4096, 100 * 4096}, {1 << 20, 100 * 4096}};
  IoPattern pattern(testing::job_for(RwMode::kRandWrite), regions, 7);
  auto ios = testing::drain(pattern);
  ASSERT_EQ(ios.size(), 300u);
  std::vector<std::set<std::uint64_t>> offsets(3);
  for (std::size_t i = 0; i < ios.size(); ++i) {
    EXPECT_EQ(ios[i].file_index, static_cast<int>(i % 3));
    const auto& region = regions[ios[i].file_index];
    EXPECT_GE(ios[i].offset, region.start);
    EXPECT_LE(ios[i].offset + ios[i].length, region.start + region.length);
    offsets[ios[i].file_index].insert(ios[i].offset);
  }
  for (const auto& file_offsets : offsets) EXPECT_EQ(file_offsets.size(), 100u);
}

TEST(IoPatternRandomFiles, PlannedBytesCountsWholeBlocksOnly) {
  IoPattern pattern(testing::job_for(RwMode::kRandRead), {{0, 10 * 4096 + 100}}, 1);
  EXPECT_EQ(pattern.planned_bytes(), 10u * 4096);
  EXPECT_EQ(testing::total_bytes(testing::drain(pattern)), 10u * 4096);
}

// fio's random_generator=lfsr with norandommap: 1 MiB of 4 KiB blocks, each touched once in a scrambled order
// (fio 3.33's write_iolog shows all 256 offsets); a tausworthe-style draw without the map leaves many untouched.
TEST(IoPatternRandom, LfsrTouchesEveryBlockOncePerPassWithoutTheMap) {
  JobSpec job = job_for(RwMode::kRandRead);
  job.workload.norandommap = true;
  job.workload.lfsr_offsets = true;
  IoPattern pattern(job, {{0, 1 << 20}}, 7);
  const auto ios = drain(pattern);
  ASSERT_EQ(ios.size(), 256u);
  std::set<std::uint64_t> offsets;
  std::size_t ascending = 0;
  for (std::size_t i = 0; i < ios.size(); ++i) {
    EXPECT_EQ(ios[i].offset % 4096, 0u);
    EXPECT_EQ(ios[i].length, 4096u);
    offsets.insert(ios[i].offset);
    if (i > 0 && ios[i].offset == ios[i - 1].offset + 4096) ++ascending;
  }
  EXPECT_EQ(offsets.size(), 256u);
  EXPECT_LT(ascending, 32u);
}

TEST(IoPatternRandom, LfsrPassesRepeatTheOrderWithLoopsAndTimeBased) {
  JobSpec job = job_for(RwMode::kRandWrite);
  job.workload.lfsr_offsets = true;
  job.time.loops = 3;
  IoPattern looped(job, {{4096, 100 * 4096}}, 3);
  const auto ios = drain(looped);
  ASSERT_EQ(ios.size(), 300u);
  for (std::size_t i = 0; i < 100; ++i) {
    EXPECT_EQ(ios[i].offset, ios[i + 100].offset);
    EXPECT_EQ(ios[i].offset, ios[i + 200].offset);
  }
  EXPECT_TRUE(ios[100].starts_pass);
  job.time.loops = 1;
  job.time.time_based = true;
  IoPattern timed(job, {{4096, 100 * 4096}}, 3);
  const auto endless = drain(timed, 250);
  ASSERT_EQ(endless.size(), 250u);
  for (std::size_t i = 0; i < 100; ++i) EXPECT_EQ(endless[i].offset, endless[i + 100].offset);
  EXPECT_TRUE(endless[200].starts_pass);
}

}  // namespace
}  // namespace sluice
