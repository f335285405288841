#include "workload/verify_map.h"

#include <gtest/gtest.h>

namespace sluice {
namespace {

void write(VerifyMap& map, int file, std::uint64_t offset, std::uint32_t length) {
  map.begin_write(file, offset, length, [](std::uint64_t, std::uint64_t) {});
}

TEST(VerifyMap, GenerationCountsWritesPerChunk) {
  VerifyMap map({{0, 64 * 1024}}, 4096, 0);
  write(map, 0, 8192, 8192);
  write(map, 0, 8192, 4096);
  EXPECT_EQ(map.generation(0, 8192), 2u);
  EXPECT_EQ(map.generation(0, 12288), 1u);
  EXPECT_EQ(map.generation(0, 0), 0u);
}

TEST(VerifyMap, PhaseCoalescesWrittenChunksInOrder) {
  VerifyMap map({{4096, 64 * 1024}}, 4096, 0);
  write(map, 0, 4096 + 16384, 4096);
  write(map, 0, 4096, 8192);
  NextIo io;
  ASSERT_TRUE(map.next_phase_read(io, 65536));
  EXPECT_EQ(io.offset, 4096u);
  EXPECT_EQ(io.length, 8192u);
  ASSERT_TRUE(map.next_phase_read(io, 65536));
  EXPECT_EQ(io.offset, 4096u + 16384);
  EXPECT_EQ(io.length, 4096u);
  EXPECT_FALSE(map.next_phase_read(io, 65536));
}

TEST(VerifyMap, PhaseReadsAreCappedAtMaxLength) {
  VerifyMap map({{0, 64 * 1024}}, 4096, 0);
  write(map, 0, 0, 16384);
  NextIo io;
  ASSERT_TRUE(map.next_phase_read(io, 8192));
  EXPECT_EQ(io.length, 8192u);
}

TEST(VerifyMap, BacklogIsDueAfterNWritesAndSkippedByThePhase) {
  VerifyMap map({{0, 64 * 1024}}, 4096, 2);
  write(map, 0, 0, 4096);
  map.write_completed(0, 0, 4096);
  EXPECT_FALSE(map.backlog_due());
  write(map, 0, 4096, 4096);
  map.write_completed(0, 4096, 4096);
  ASSERT_TRUE(map.backlog_due());
  map.start_backlog_round();
  NextIo io;
  int reads = 0;
  while (map.next_backlog_read(io, 65536)) ++reads;
  EXPECT_EQ(reads, 2);
  EXPECT_FALSE(map.backlog_due());
  EXPECT_FALSE(map.next_phase_read(io, 65536)) << "chunks verified by the backlog are not read again";
}

// The reads of one round (whole writes checked), with the writes done before it.
int round_after(VerifyMap& map, int writes, std::uint64_t& next_offset) {
  for (int i = 0; i < writes; ++i, next_offset += 4096) {
    write(map, 0, next_offset, 4096);
    map.write_completed(0, next_offset, 4096);
  }
  if (!map.backlog_due()) return 0;
  map.start_backlog_round();
  NextIo io;
  int reads = 0;
  while (map.next_backlog_read(io, 65536)) ++reads;
  return reads;
}

// fio 3.33's io log with verify_backlog=16, verify_backlog_batch=8: w16 r8 w8 r8 w8 r8 ... (the oldest first).
TEST(VerifyMap, BacklogBatchChecksPartOfTheWaitingWritesOldestFirst) {
  VerifyMap map({{0, 1024 * 1024}}, 4096, 16, 8);
  std::uint64_t offset = 0;
  EXPECT_EQ(round_after(map, 15, offset), 0);
  EXPECT_EQ(round_after(map, 1, offset), 8);
  EXPECT_FALSE(map.backlog_due()) << "no round again before a write completes";
  EXPECT_EQ(round_after(map, 7, offset), 0);
  EXPECT_EQ(round_after(map, 1, offset), 8);
  NextIo io;
  ASSERT_TRUE(map.next_phase_read(io, 4096));
  EXPECT_EQ(io.offset, 16u * 4096) << "the phase reads the writes no round checked, from the 17th";
}

TEST(VerifyMap, SkippedChunksAreNotRead) {
  VerifyMap map({{0, 64 * 1024}}, 4096, 0);
  write(map, 0, 0, 8192);
  map.skip(0, 0, 4096);
  NextIo io;
  ASSERT_TRUE(map.next_phase_read(io, 65536));
  EXPECT_EQ(io.offset, 4096u);
  EXPECT_EQ(io.length, 4096u);
  EXPECT_FALSE(map.next_phase_read(io, 65536));
}

TEST(VerifyMap, RewriteAfterVerificationIsVerifiedAgain) {
  VerifyMap map({{0, 64 * 1024}}, 4096, 0);
  write(map, 0, 0, 4096);
  NextIo io;
  ASSERT_TRUE(map.next_phase_read(io, 65536));
  write(map, 0, 0, 4096);
  map.rewind();
  EXPECT_TRUE(map.next_phase_read(io, 65536));
  EXPECT_EQ(map.generation(0, 0), 2u);
}

}  // namespace
}  // namespace sluice

namespace sluice {
namespace {

TrimSettings trims(std::uint32_t percentage, std::uint64_t backlog, std::uint32_t batch = 0, bool zeros = true,
                   std::uint64_t seed = 0) {
  TrimSettings t;
  t.percentage = percentage;
  t.backlog = backlog;
  t.batch = batch;
  t.expect_zeros = zeros;
  t.seed = seed;
  return t;
}

void completed_write(VerifyMap& map, std::uint64_t offset) {
  map.begin_write(0, offset, 4096, [](std::uint64_t, std::uint64_t) {});
  map.write_completed(0, offset, 4096);
}

// fio's trim rule: every trim_backlog completed writes a round trims up to trim_backlog_batch of the drawn
// ones, the oldest first; a trimmed chunk keeps its generation and must read as zeros.
TEST(VerifyMapTrims, RoundsEveryBacklogWritesOfABatchOldestFirst) {
  VerifyMap map({{0, 1 << 20}}, 4096, 0, 0, trims(100, 4, 2));
  for (std::uint64_t i = 0; i < 3; ++i) completed_write(map, i * 4096);
  EXPECT_FALSE(map.trim_due());  // three writes: not yet
  completed_write(map, 3 * 4096);
  ASSERT_TRUE(map.trim_due());
  map.start_trim_round();
  NextIo io;
  ASSERT_TRUE(map.next_trim(io));
  EXPECT_EQ(io.offset, 0u);
  EXPECT_EQ(io.direction, Direction::kTrim);
  ASSERT_TRUE(map.next_trim(io));
  EXPECT_EQ(io.offset, 4096u);
  EXPECT_FALSE(map.next_trim(io));  // the batch of 2 is used up; two wait
  EXPECT_FALSE(map.trim_due());
  EXPECT_TRUE(map.trimmed(0, 0));
  EXPECT_TRUE(map.trimmed(0, 4096));
  EXPECT_FALSE(map.trimmed(0, 8192));
  EXPECT_EQ(map.generation(0, 0), 1u);
  map.trim_all_waiting();
  ASSERT_TRUE(map.next_trim(io));
  ASSERT_TRUE(map.next_trim(io));
  EXPECT_EQ(io.offset, 3 * 4096u);
  EXPECT_FALSE(map.next_trim(io));
}

TEST(VerifyMapTrims, ARewriteClearsTrimmedAndThePhaseReadsTrimmedChunks) {
  VerifyMap map({{0, 64 * 1024}}, 4096, 0, 0, trims(100, 1));
  completed_write(map, 0);
  map.start_trim_round();
  NextIo io;
  ASSERT_TRUE(map.next_trim(io));
  EXPECT_TRUE(map.trimmed(0, 0));
  NextIo read;
  ASSERT_TRUE(map.next_phase_read(read, 65536));  // still to be checked, as zeros
  EXPECT_EQ(read.offset, 0u);
  map.rewind();
  map.begin_write(0, 0, 4096, [](std::uint64_t, std::uint64_t) {});
  EXPECT_FALSE(map.trimmed(0, 0));
  EXPECT_EQ(map.generation(0, 0), 2u);
}

TEST(VerifyMapTrims, WithoutZeroCheckTrimmedChunksAreNotRead) {
  VerifyMap map({{0, 64 * 1024}}, 4096, 0, 0, trims(100, 1, 0, false));
  completed_write(map, 0);
  completed_write(map, 4096);
  map.trim_all_waiting();
  NextIo io;
  ASSERT_TRUE(map.next_trim(io));
  EXPECT_FALSE(map.trimmed(0, 0));
  NextIo read;
  ASSERT_TRUE(map.next_phase_read(read, 65536));
  EXPECT_EQ(read.offset, 4096u);  // the second, not trimmed yet, is read; the trimmed one is not
}

TEST(VerifyMapTrims, PercentageDrawsThatShare) {
  VerifyMap map({{0, 64ull << 20}}, 4096, 0, 0, trims(30, 1u << 30, 0, true, 7));
  for (std::uint64_t i = 0; i < 10000; ++i) completed_write(map, i * 4096);
  map.trim_all_waiting();
  int trims = 0;
  NextIo io;
  while (map.next_trim(io)) ++trims;
  EXPECT_NEAR(trims, 3000, 150);
}

TEST(VerifyMapTrims, ForgetWritesDropsEverything) {
  VerifyMap map({{0, 64 * 1024}}, 4096, 4, 0, trims(100, 1));
  completed_write(map, 0);
  map.forget_writes();
  NextIo io;
  EXPECT_FALSE(map.trim_due());
  EXPECT_FALSE(map.next_phase_read(io, 65536));
  EXPECT_EQ(map.generation(0, 0), 0u);
}

}  // namespace
}  // namespace sluice
