#include <gtest/gtest.h>

#include <map>

#include "workload/block_size_chooser.h"

namespace sluice {
namespace {

std::map<std::uint32_t, double> shares(const BlockSizeChooser& chooser, int samples) {
  Rng rng(11);
  std::map<std::uint32_t, double> counts;
  for (int i = 0; i < samples; ++i) counts[chooser.choose(rng)] += 1.0 / samples;
  return counts;
}

TEST(BlockSizeChooser, FixedSizeAlwaysReturnsBs) {
  BlockSizeChooser chooser(8192, {}, {}, 0);
  auto counts = shares(chooser, 1000);
  ASSERT_EQ(counts.size(), 1u);
  EXPECT_EQ(counts.begin()->first, 8192u);
  EXPECT_EQ(chooser.alignment(), 8192u);
}

TEST(BlockSizeChooser, BssplitProportionsWithinOnePercent) {
  BlockSizeChooser chooser(4096, {}, {{4096, 10}, {8192, 60}, {65536, 30}}, 0);
  auto counts = shares(chooser, 200'000);
  EXPECT_NEAR(counts[4096], 0.10, 0.01);
  EXPECT_NEAR(counts[8192], 0.60, 0.01);
  EXPECT_NEAR(counts[65536], 0.30, 0.01);
  EXPECT_EQ(chooser.min(), 4096u);
  EXPECT_EQ(chooser.max(), 65536u);
}

TEST(BlockSizeChooser, BssplitBlankPercentagesShareTheRemainder) {
  BlockSizeChooser chooser(4096, {}, {{4096, 50}, {8192, 0}, {16384, 0}}, 0);
  auto counts = shares(chooser, 200'000);
  EXPECT_NEAR(counts[4096], 0.50, 0.01);
  EXPECT_NEAR(counts[8192], 0.25, 0.01);
  EXPECT_NEAR(counts[16384], 0.25, 0.01);
}

TEST(BlockSizeChooser, BsrangeIsUniformOverMultiplesOfMin) {
  BlockSizeChooser chooser(4096, {4096, 16384}, {}, 0);
  auto counts = shares(chooser, 200'000);
  ASSERT_EQ(counts.size(), 4u);
  for (std::uint32_t size : {4096u, 8192u, 12288u, 16384u}) EXPECT_NEAR(counts[size], 0.25, 0.01) << size;
}

TEST(BlockSizeChooser, BsrangeStepsByBlockalignWhenGiven) {
  BlockSizeChooser chooser(4096, {4096, 6144}, {}, 1024);
  auto counts = shares(chooser, 30'000);
  ASSERT_EQ(counts.size(), 3u);
  EXPECT_TRUE(counts.count(5120));
  EXPECT_EQ(chooser.granularity(), 1024u);
}

TEST(BlockSizeChooser, LargestFittingPicksTheBiggestAllowedSize) {
  BlockSizeChooser split(4096, {}, {{4096, 50}, {65536, 50}}, 0);
  EXPECT_EQ(split.largest_fitting(60000), 4096u);
  EXPECT_EQ(split.largest_fitting(4095), 0u);
  BlockSizeChooser range(4096, {4096, 65536}, {}, 0);
  EXPECT_EQ(range.largest_fitting(20000), 16384u);
}

}  // namespace
}  // namespace sluice
