#include "workload/random_map.h"

#include <gtest/gtest.h>

#include <set>

namespace sluice {
namespace {

TEST(RandomMap, StartsAllFree) {
  RandomMap map(1000);
  EXPECT_EQ(map.free_blocks(), 1000u);
  EXPECT_EQ(map.next_free(0), 0u);
  EXPECT_EQ(map.next_free(999), 999u);
  EXPECT_EQ(map.next_free(1000), RandomMap::kNone);
}

TEST(RandomMap, NextFreeSkipsTakenBlocksAcrossWordsAndLevels) {
  const std::uint64_t blocks = 64 * 64 * 3 + 17;  // three levels, padded last words
  RandomMap map(blocks);
  map.take(5, blocks - 5 - 1);  // everything from 5 but the very last block
  EXPECT_EQ(map.next_free(0), 0u);
  EXPECT_EQ(map.next_free(5), blocks - 1);
  EXPECT_EQ(map.free_blocks(), 6u);
  map.take(blocks - 1, 1);
  EXPECT_EQ(map.next_free(5), RandomMap::kNone);
}

TEST(RandomMap, FreeRunStopsAtFirstTakenBlockAndAtLimit) {
  RandomMap map(300);
  map.take(130, 1);
  EXPECT_EQ(map.free_run(60, 1000), 70u);
  EXPECT_EQ(map.free_run(60, 16), 16u);
  EXPECT_EQ(map.free_run(130, 4), 0u);
  EXPECT_EQ(map.free_run(290, 100), 10u);  // the end of the map
}

TEST(RandomMap, TakingEveryBlockInScatteredOrderLeavesNoneFree) {
  const std::uint64_t blocks = 10007;
  RandomMap map(blocks);
  std::set<std::uint64_t> seen;
  for (std::uint64_t i = 0; i < blocks; ++i) {
    const std::uint64_t want = (i * 7919) % blocks;  // a permutation (7919 is prime, coprime to 10007)
    const std::uint64_t got = map.next_free(want) != RandomMap::kNone ? map.next_free(want) : map.next_free(0);
    ASSERT_NE(got, RandomMap::kNone);
    map.take(got, 1);
    seen.insert(got);
  }
  EXPECT_EQ(seen.size(), blocks);
  EXPECT_EQ(map.free_blocks(), 0u);
  EXPECT_EQ(map.next_free(0), RandomMap::kNone);
}

// take_one (the inline path of one-unit ios) against take(block, 1): the same answers from next_free, free_run
// and free_blocks at every step of a scattered fill over three summary levels, including the words it fills.
TEST(RandomMap, TakeOneMatchesTakeOfOneBlock) {
  const std::uint64_t blocks = 64 * 64 * 2 + 37;
  RandomMap by_one(blocks);
  RandomMap by_range(blocks);
  for (std::uint64_t i = 0; i < blocks; ++i) {
    const std::uint64_t want = (i * 7919) % blocks;
    std::uint64_t got = by_one.next_free(want);
    if (got == RandomMap::kNone) got = by_one.next_free(0);
    ASSERT_EQ(got, by_range.next_free(want) != RandomMap::kNone ? by_range.next_free(want) : by_range.next_free(0));
    by_one.take_one(got);
    by_range.take(got, 1);
    ASSERT_EQ(by_one.free_blocks(), by_range.free_blocks());
    ASSERT_EQ(by_one.next_free(got), by_range.next_free(got));
    ASSERT_EQ(by_one.free_run(want, 70), by_range.free_run(want, 70));
  }
  EXPECT_EQ(by_one.free_blocks(), 0u);
  EXPECT_EQ(by_one.next_free(0), RandomMap::kNone);
}

TEST(RandomMap, ResetFreesEverything) {
  RandomMap map(200);
  map.take(0, 200);
  map.reset();
  EXPECT_EQ(map.free_blocks(), 200u);
  EXPECT_EQ(map.free_run(0, 500), 200u);
}

}  // namespace
}  // namespace sluice
