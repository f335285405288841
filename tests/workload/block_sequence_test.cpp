// random_distribution=sequence: the block of each io, against sequences worked out by hand from fio's rule
// (io n: sequence[n % L], plus (n / L) * L with stride), and IoPattern's use of it.
#include "workload/block_sequence.h"

#include <gtest/gtest.h>

#include <vector>

#include "common/error.h"
#include "job/job_spec.h"
#include "workload/io_pattern.h"
#include "workload_test_helpers.h"

namespace sluice {
namespace {

using testing::drain;
using testing::job_for;

std::vector<std::uint64_t> sequence_blocks(const BlockSequence& sequence, std::uint64_t ios, std::uint64_t blocks) {
  std::vector<std::uint64_t> out;
  std::uint64_t block = 0;
  for (std::uint64_t n = 0; n < ios && sequence.block_of(n, blocks, block); ++n) out.push_back(block);
  return out;
}

TEST(BlockSequence, RepeatsTheIndices) {
  EXPECT_EQ(sequence_blocks(BlockSequence({2, 0, 1}, false), 7, 100),
            (std::vector<std::uint64_t>{2, 0, 1, 2, 0, 1, 2}));
}

TEST(BlockSequence, StrideMovesEachRoundByTheLength) {
  EXPECT_EQ(sequence_blocks(BlockSequence({2, 0, 1}, true), 9, 100),
            (std::vector<std::uint64_t>{2, 0, 1, 5, 3, 4, 8, 6, 7}));
  // Indices may reach past the group: 3,1 strides by 2 (3,1, 5,3, 7,5).
  EXPECT_EQ(sequence_blocks(BlockSequence({3, 1}, true), 6, 100), (std::vector<std::uint64_t>{3, 1, 5, 3, 7, 5}));
}

TEST(BlockSequence, EndsAtTheFirstBlockPastTheRegion) {
  // 5 blocks: 2,0,1 then 5 is past them (fio ends the file there, not at the first fitting element).
  EXPECT_EQ(sequence_blocks(BlockSequence({2, 0, 1}, true), 100, 5), (std::vector<std::uint64_t>{2, 0, 1}));
  // 6 blocks: 4 of the second round fit, 8 does not.
  EXPECT_EQ(sequence_blocks(BlockSequence({2, 0, 1}, true), 100, 6), (std::vector<std::uint64_t>{2, 0, 1, 5, 3, 4}));
  std::uint64_t block = 0;
  EXPECT_FALSE(BlockSequence({}, false).block_of(0, 10, block));
}

TEST(BlockSequence, FirstIndexOutOfTheRegion) {
  EXPECT_EQ(BlockSequence({2, 0, 7, 9}, false).first_out_of(5), 7u);
  EXPECT_FALSE(BlockSequence({2, 0, 4}, true).first_out_of(5).has_value());
}

JobSpec sequence_job(RwMode rw, std::vector<std::uint32_t> indices, bool stride, std::uint64_t bs = 4096) {
  JobSpec job = job_for(rw, bs);
  job.workload.random_distribution.kind = DistributionKind::kSequence;
  job.workload.random_distribution.sequence = std::move(indices);
  job.workload.random_sequence_stride = stride;
  return job;
}

std::vector<std::uint64_t> offsets_of(const std::vector<NextIo>& ios, Direction direction, std::uint64_t unit) {
  std::vector<std::uint64_t> out;
  for (const NextIo& io : ios) {
    if (io.direction == direction) out.push_back(io.offset / unit);
  }
  return out;
}

TEST(IoPatternSequence, RepeatsUntilTheSizeIsDone) {
  IoPattern pattern(sequence_job(RwMode::kRandRead, {2, 0, 1}, false), {{0, 48 * 1024}}, 1);
  const auto ios = drain(pattern);
  EXPECT_EQ(offsets_of(ios, Direction::kRead, 4096), (std::vector<std::uint64_t>{2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1}));
}

TEST(IoPatternSequence, StrideEndsTheJobWhereTheGroupsLeaveTheRegion) {
  // fio master, size=20k: 3 ios (blocks 2,0,1; block 5 is past the 5 blocks), 12 KiB of 20.
  IoPattern pattern(sequence_job(RwMode::kRandRead, {2, 0, 1}, true), {{0, 20 * 1024}}, 1);
  EXPECT_EQ(offsets_of(drain(pattern), Direction::kRead, 4096), (std::vector<std::uint64_t>{2, 0, 1}));
}

TEST(IoPatternSequence, LaterLoopsGoOnCountingAsFio) {
  // loops=2 over 6 blocks: the second loop would start at io 6 (block 8), past the region: nothing more.
  JobSpec job = sequence_job(RwMode::kRandRead, {2, 0, 1}, true);
  job.time.loops = 2;
  IoPattern pattern(job, {{0, 24 * 1024}}, 1);
  EXPECT_EQ(offsets_of(drain(pattern), Direction::kRead, 4096), (std::vector<std::uint64_t>{2, 0, 1, 5, 3, 4}));
}

TEST(IoPatternSequence, TimeBasedEndsToo) {
  JobSpec job = sequence_job(RwMode::kRandRead, {2, 0, 1}, true);
  job.time.time_based = true;
  IoPattern pattern(job, {{0, 20 * 1024}}, 1);
  EXPECT_EQ(drain(pattern, 100).size(), 3u);
}

TEST(IoPatternSequence, EachDirectionKeepsItsOwnCount) {
  JobSpec job = sequence_job(RwMode::kRandRW, {2, 0, 1}, true);
  IoPattern pattern(job, {{0, 96 * 1024}}, 5);
  const auto ios = drain(pattern);
  for (Direction d : {Direction::kRead, Direction::kWrite}) {
    const auto got = offsets_of(ios, d, 4096);
    ASSERT_GT(got.size(), 3u);
    const std::uint64_t base[] = {2, 0, 1};
    for (std::size_t n = 0; n < got.size(); ++n) EXPECT_EQ(got[n], n / 3 * 3 + base[n % 3]) << index_of(d) << " " << n;
  }
}

TEST(IoPatternSequence, BlocksCountTheBlockSizeAndSitAtTheAlignment) {
  // bs=8k over 48 KiB: 6 blocks of 8 KiB (fio: offsets 16k, 0, 8k, 40k, 24k, 32k).
  IoPattern by_size(sequence_job(RwMode::kRandRead, {2, 0, 1}, true, 8192), {{0, 48 * 1024}}, 1);
  EXPECT_EQ(offsets_of(drain(by_size), Direction::kRead, 4096), (std::vector<std::uint64_t>{4, 0, 2, 10, 6, 8}));
  // blockalign=4k: the index counts 4 KiB steps, the region still 6 blocks of 8 KiB (fio: b * ba, max_blocks
  // from the smallest size).
  JobSpec aligned = sequence_job(RwMode::kRandRead, {2, 0, 5}, false, 8192);
  aligned.workload.blockalign = {4096, 4096, 4096};
  IoPattern pattern(aligned, {{0, 48 * 1024}}, 1);
  EXPECT_EQ(offsets_of(drain(pattern), Direction::kRead, 4096), (std::vector<std::uint64_t>{2, 0, 5, 2, 0, 5}));
}

TEST(IoPatternSequence, OffsetsAreInTheRegion) {
  IoPattern pattern(sequence_job(RwMode::kRandRead, {2, 0, 1}, true), {{8192, 24 * 1024}}, 1);
  EXPECT_EQ(offsets_of(drain(pattern), Direction::kRead, 4096), (std::vector<std::uint64_t>{4, 2, 3, 7, 5, 6}));
}

TEST(IoPatternSequence, FilesShareTheCount) {
  // Two files served in turn: the ios go 2 (file 1), 0 (file 2), 1 (file 1), 5 (file 2), ...
  IoPattern pattern(sequence_job(RwMode::kRandRead, {2, 0, 1}, true), {{0, 24 * 1024}, {0, 24 * 1024}}, 1);
  const auto ios = drain(pattern);
  ASSERT_EQ(ios.size(), 6u);
  const std::vector<std::uint64_t> blocks = {2, 0, 1, 5, 3, 4};
  for (std::size_t i = 0; i < ios.size(); ++i) {
    EXPECT_EQ(ios[i].offset / 4096, blocks[i]) << i;
    EXPECT_EQ(ios[i].file_index, static_cast<int>(i % 2)) << i;
  }
}

TEST(IoPatternSequence, AnIndexPastTheRegionIsRefused) {
  try {
    IoPattern pattern(sequence_job(RwMode::kRandRead, {2, 0, 7}, false), {{0, 20 * 1024}}, 1);
    FAIL() << "accepted";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("block index 7 is past the 5 blocks"), std::string::npos) << e.what();
  }
}

TEST(IoPatternSequence, SequentialModesIgnoreIt) {
  IoPattern pattern(sequence_job(RwMode::kRead, {2, 0, 1}, false), {{0, 16 * 1024}}, 1);
  EXPECT_EQ(offsets_of(drain(pattern), Direction::kRead, 4096), (std::vector<std::uint64_t>{0, 1, 2, 3}));
}

// fio's reset_all_stats at the ramp's end zeroes io_issues: the sequence starts over. An io drawn before the
// restart but not started (waiting for its rate) is the first of the new count: it moves to the first block.
TEST(IoPatternSequence, RestartingTheIoNumbersStartsTheSequenceOver) {
  IoPattern pattern(sequence_job(RwMode::kRandRead, {2, 0, 1}, true), {{0, 96 * 1024}}, 1);
  NextIo io;
  std::vector<std::uint64_t> blocks;
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(pattern.next(io));
    blocks.push_back(io.offset / 4096);
  }
  EXPECT_EQ(blocks, (std::vector<std::uint64_t>{2, 0, 1, 5}));
  NextIo waiting;
  ASSERT_TRUE(pattern.next(waiting));
  EXPECT_EQ(waiting.offset / 4096, 3u);
  pattern.restart_io_numbers(&waiting);
  EXPECT_EQ(waiting.offset / 4096, 2u) << "the waiting io takes number 0";
  blocks.clear();
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(pattern.next(io));
    blocks.push_back(io.offset / 4096);
  }
  EXPECT_EQ(blocks, (std::vector<std::uint64_t>{0, 1, 5, 3}));
  pattern.restart_io_numbers(nullptr);
  ASSERT_TRUE(pattern.next(io));
  EXPECT_EQ(io.offset / 4096, 2u);
}

}  // namespace
}  // namespace sluice
