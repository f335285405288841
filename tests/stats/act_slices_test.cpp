// ACT's hourly slices and fio's table (profiles/act.c's act_io_u_lat and act_show_all_stats).
#include "stats/act_slices.h"

#include <gtest/gtest.h>

namespace sluice {
namespace {

constexpr std::uint64_t kUs = 1000;

TEST(ActSlices, EachIoCountsOnceAtTheHighestLimitItExceeds) {
  ActSlices slices(100, 250, 0);  // 3 slices
  ASSERT_EQ(slices.slices().size(), 3u);
  slices.count(500 * kUs);    // under every limit
  slices.count(1001 * kUs);   // over 1 ms
  slices.count(9000 * kUs);   // over 8 ms
  slices.count(64001 * kUs);  // over 64 ms
  EXPECT_EQ(slices.slices()[0], (ActSlice{4, 1, 1, 1}));
}

TEST(ActSlices, ASliceOverACriterionFailsWhenItEnds) {
  ActSlices slices(100, 300, 0);
  for (int i = 0; i < 95; ++i) slices.count(100 * kUs);
  for (int i = 0; i < 5; ++i) slices.count(2000 * kUs);  // 5% over 1 ms: fio's limit is "less than 5%"
  EXPECT_FALSE(slices.advance(99).has_value()) << "the slice is not over yet";
  const auto failure = slices.advance(100);
  ASSERT_TRUE(failure.has_value());
  EXPECT_EQ(*failure, "act: 5.000000% exceeds pass criteria of 5.000000%");
  for (int i = 0; i < 100; ++i) slices.count(100 * kUs);  // the next slice passes
  EXPECT_FALSE(slices.advance(200).has_value());
  EXPECT_EQ(slices.slices()[1][0], 100u);
}

TEST(ActSlices, TheTableIsFios) {
  const std::string table = act_report({ActSlice{200, 2, 0, 0}, ActSlice{0, 0, 0, 0}});
  EXPECT_EQ(table,
            "        trans                   device\n"
            "        %>(ms)                  %>(ms)\n"
            " slice\t  1\t  8\t 64\t  1\t  8\t 64\n"
            " -----  -----   -----  ------   -----   -----  ------\n"
            "    1\t1.00\t0.00\t0.00\t1.00\t0.00\t0.00\n"
            "    2\t0.00\t0.00\t0.00\t0.00\t0.00\t0.00\n"
            "\nact: test complete, device(s): PASSED\n");
  EXPECT_FALSE(act_passed({ActSlice{100, 0, 0, 1}}));  // 1% over 64 ms: ten times the 0.1% allowed
}

}  // namespace
}  // namespace sluice
