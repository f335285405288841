// fio's compact numbers and latency units.
#include "report/report_format.h"

#include <gtest/gtest.h>

#include "report/report_math.h"

namespace sluice::report {
namespace {

TEST(CompactNumber, MatchesFioExamples) {
  EXPECT_EQ(compact_number(10'932, 4, 1000, NumUnit::kNone), "10.9k");
  EXPECT_EQ(compact_number(958'000, 4, 1000, NumUnit::kNone), "958k");
  EXPECT_EQ(compact_number(44.8e6, 4, 1024, NumUnit::kBytes), "42.7MiB");
  EXPECT_EQ(compact_number(44.8e6, 4, 1000, NumUnit::kBytes), "44.8MB");
  EXPECT_EQ(compact_number(3924e6, 4, 1024, NumUnit::kBytes), "3742MiB");
  EXPECT_EQ(compact_number(1024 * 1024, 4, 1024, NumUnit::kBytes), "1024KiB");
  EXPECT_EQ(compact_number(256, 4, 1000, NumUnit::kNone), "256");
  EXPECT_EQ(compact_number(25'371'000, 6, 1000, NumUnit::kNone), "25371k");
}

// fio's num2str with N2S_BITPERSEC (unit_base=1), worked by hand from lib/num2str.c.
TEST(CompactNumber, BitsAreEightTimesTheBytes) {
  EXPECT_EQ(compact_number(44.8e6, 4, 1024, NumUnit::kBits), "342Mibit");
  EXPECT_EQ(compact_number(44.8e6, 4, 1000, NumUnit::kBits), "358Mbit");
  EXPECT_EQ(compact_number(100, 4, 1024, NumUnit::kBits), "800bit");
  EXPECT_EQ(compact_number(204.8e6, 6, 1024, NumUnit::kBits), "1562.5Mibit");
  EXPECT_EQ(compact_number(204.8e6, 6, 1000, NumUnit::kBits), "1638.4Mbit");
}

TEST(CompactNumber, WidthIsFiosSignificantFigures) {
  EXPECT_EQ(compact_number(409.6e6, 6, 1024, NumUnit::kBytes), "400000KiB");
  EXPECT_EQ(compact_number(44.8e6, 2, 1024, NumUnit::kBytes), "43MiB");
  EXPECT_EQ(compact_number(44.8e6, 8, 1024, NumUnit::kBytes), "44800000B");
  // One figure: fio's num2str divides 10932 twice (10, then 0) and prints "0M"; so does sluice.
  EXPECT_EQ(compact_number(10'932, 1, 1000, NumUnit::kNone), "0M");
}

TEST(CompactNumber, RoundingCarriesIntoTheNextDigit) {
  EXPECT_EQ(compact_number(99'960, 4, 1000, NumUnit::kNone), "100k");
}

TEST(CompactNumber, NeverPrintsNan) { EXPECT_EQ(compact_number(std::nan(""), 4, 1000, NumUnit::kNone), "0"); }

TEST(LatencyUnits, StatLineScalesOnlyWhenValuesAreLarge) {
  EXPECT_EQ(stat_line_unit(29, 25'869, 277).name, "nsec");
  EXPECT_EQ(stat_line_unit(1'413, 25'371'000, 746'274).name, "nsec");  // fio keeps nsec for a small min
  EXPECT_EQ(stat_line_unit(4'000, 285'000, 14'230).name, "usec");
  EXPECT_EQ(stat_line_unit(3'000'000, 200'000'000, 5'000'000).name, "msec");
}

TEST(LatencyUnits, PercentileTable) {
  EXPECT_EQ(percentile_table_unit(40, 16'064).name, "nsec");
  EXPECT_EQ(percentile_table_unit(37'000, 25'297'000).name, "usec");
  EXPECT_EQ(percentile_table_unit(3'000'000, 900'000'000).name, "msec");
}

TEST(DepthPercentages, SmallNonZeroSharesShowAsOneTenth) {
  const auto p = depth_percentages({1, 0, 9998, 1, 0, 0, 0}, 10'000);
  EXPECT_DOUBLE_EQ(p[0], 0.1);
  EXPECT_DOUBLE_EQ(p[1], 0.0);
  EXPECT_DOUBLE_EQ(p[2], 99.98);
}

TEST(DepthPercentages, EmptyIsAllZero) {
  for (double v : depth_percentages({}, 0)) EXPECT_EQ(v, 0.0);
}

TEST(PercentOfGroup, CappedAtHundred) {
  EXPECT_DOUBLE_EQ(percent_of_group(2000.0, 1000), 100.0);
  EXPECT_DOUBLE_EQ(percent_of_group(250.0, 1000), 25.0);
  EXPECT_DOUBLE_EQ(percent_of_group(250.0, 0), 0.0);
}

}  // namespace
}  // namespace sluice::report
