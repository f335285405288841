// block_error_percentiles' bookkeeping and summary (fio's block_infos and calc_block_percentiles).
#include "stats/block_lifetimes.h"

#include <gtest/gtest.h>

namespace sluice {
namespace {

std::uint32_t trimmed(int times) {
  std::uint32_t info = 0;
  for (int i = 0; i < times; ++i) note_block_trimmed(info);
  return info;
}

TEST(BlockLifetimes, TrimsCountUntilAFailureEndsTheBlock) {
  std::uint32_t info = trimmed(2);
  EXPECT_EQ(block_state(info), BlockState::kTrimmed);
  EXPECT_EQ(block_trims(info), 2u);
  note_block_failed(info, true);
  EXPECT_EQ(block_state(info), BlockState::kTrimFailure);
  note_block_trimmed(info);        // after its failure the block counts no more
  note_block_failed(info, false);  // and the first failure stays
  EXPECT_EQ(block_state(info), BlockState::kTrimFailure);
  EXPECT_EQ(block_trims(info), 2u);
  std::uint32_t written = 0;
  note_block_failed(written, false);
  EXPECT_EQ(block_state(written), BlockState::kWriteFailure);
}

TEST(BlockLifetimes, PercentilesLeaveOutUnusedBlocksAndPutFailuresLast) {
  std::uint32_t failed = trimmed(1);
  note_block_failed(failed, true);
  const BlockLifetimeSummary s =
      summarize_block_lifetimes({trimmed(3), 0, trimmed(1), failed, trimmed(2)}, {50, 1, 100});
  ASSERT_EQ(s.percentiles.size(), 3u);
  EXPECT_EQ(s.percentiles[0], std::make_pair(1.0, 1u));    // ascending: 1st of 4 used blocks
  EXPECT_EQ(s.percentiles[1], std::make_pair(50.0, 3u));   // index 1 + 2 of (t1, t2, t3, failed)
  EXPECT_EQ(s.percentiles[2], std::make_pair(100.0, 1u));  // the last: the failed block (1 trim)
  EXPECT_EQ(s.states[static_cast<std::size_t>(BlockState::kUnwritten)], 1u);
  EXPECT_EQ(s.states[static_cast<std::size_t>(BlockState::kTrimmed)], 3u);
  EXPECT_EQ(s.states[static_cast<std::size_t>(BlockState::kTrimFailure)], 1u);
  EXPECT_EQ(block_state_name(BlockState::kWriteFailure), "write failure");
}

TEST(BlockLifetimes, NothingUsedMeansNoPercentiles) {
  const BlockLifetimeSummary s = summarize_block_lifetimes({0, 0, 0}, {50});
  EXPECT_TRUE(s.percentiles.empty());
  EXPECT_EQ(s.states[0], 3u);
}

}  // namespace
}  // namespace sluice
