#include <gtest/gtest.h>

#include "workload/verify_map.h"

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
