#include "stats/steady_state.h"

#include <gtest/gtest.h>

#include <vector>

namespace sluice {
namespace {

TEST(SteadyState, DescribesALineExactly) {
  const std::vector<double> line = {10, 12, 14, 16, 18};
  const SeriesShape shape = describe_series(line);
  EXPECT_DOUBLE_EQ(shape.mean, 14);
  EXPECT_DOUBLE_EQ(shape.slope, 2);
  EXPECT_DOUBLE_EQ(shape.excursion, 8);
  EXPECT_DOUBLE_EQ(shape.max_deviation, 4);
  EXPECT_DOUBLE_EQ(shape.min, 10);
  EXPECT_DOUBLE_EQ(shape.max, 18);
}

TEST(SteadyState, EmptySeriesIsAllZero) {
  const SeriesShape shape = describe_series({});
  EXPECT_EQ(shape.mean, 0);
  EXPECT_EQ(shape.slope, 0);
}

TEST(SteadyState, SniaAcceptsAFlatNoisyWindow) {
  const std::vector<double> rounds = {50, 80, 100, 104, 97, 101, 99};
  EXPECT_TRUE(snia_steady(rounds));
}

TEST(SteadyState, SniaRejectsARangeWiderThanTwentyPercent) {
  const std::vector<double> rounds = {100, 89, 111, 100, 100};  // range 22 on a mean of 100
  EXPECT_FALSE(snia_steady(rounds));
}

TEST(SteadyState, SniaRejectsATrendWithinTheRange) {
  const std::vector<double> rounds = {92, 96, 100, 104, 108};  // range 16%, excursion 16%
  EXPECT_FALSE(snia_steady(rounds));
}

TEST(SteadyState, SniaNeedsAFullWindow) {
  const std::vector<double> rounds = {100, 100, 100, 100};
  EXPECT_FALSE(snia_steady(rounds));
  EXPECT_TRUE(snia_steady(rounds, 4));
}

TEST(SteadyState, FioCriteriaTakeFractionsOrAbsoluteLimits) {
  const std::vector<double> samples = {100, 101, 102, 103};
  const SeriesShape shape = describe_series(samples);
  EXPECT_TRUE(slope_within(shape, 0.01, true));   // slope 1 <= 1% of 101.5
  EXPECT_FALSE(slope_within(shape, 0.5, false));  // slope 1 > 0.5
  EXPECT_TRUE(deviation_within(shape, 1.5, false));
  EXPECT_FALSE(deviation_within(shape, 0.01, true));  // 1.5 > 1.015
}

}  // namespace
}  // namespace sluice
