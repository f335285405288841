#include "compare/verdict.h"

#include <gtest/gtest.h>

namespace sluice {
namespace {

const std::vector<double> kBase = {1000, 1010, 990, 1005, 995};

TEST(Verdict, BetterWhenSignificantAndAboveNoiseInTheGoodDirection) {
  const Judgement j = judge(kBase, {1200, 1210, 1190, 1205, 1195}, /*higher_is_better=*/true, {});
  EXPECT_EQ(j.verdict, Verdict::kBetter) << j.reason;
  EXPECT_NEAR(*j.change_pct, 20.0, 1e-9);
  EXPECT_LT(j.test->p, 0.05);
}

TEST(Verdict, WorseWhenLatencyRises) {
  const Judgement j = judge(kBase, {1200, 1210, 1190, 1205, 1195}, /*higher_is_better=*/false, {});
  EXPECT_EQ(j.verdict, Verdict::kWorse) << j.reason;
}

TEST(Verdict, WithinNoiseWhenSignificantButBelowTheNoiseFloor) {
  // Fully separated (p = 0.0079) but only +1%: below the 2% floor.
  const Judgement j = judge(kBase, {1011, 1012, 1013, 1014, 1015}, true, {});
  EXPECT_LT(j.test->p, 0.05);
  EXPECT_EQ(j.verdict, Verdict::kWithinNoise) << j.reason;
  EXPECT_NE(j.reason.find("noise floor"), std::string::npos);
}

TEST(Verdict, WithinNoiseWhenLargeButNotSignificant) {
  // The medians differ by 17%, but the samples overlap wildly.
  const Judgement j = judge({100, 300, 50, 200, 120}, {110, 40, 310, 190, 140}, true, {});
  EXPECT_GE(j.test->p, 0.05);
  EXPECT_EQ(j.verdict, Verdict::kWithinNoise) << j.reason;
}

TEST(Verdict, CannotTellWithFewerThanThreeRepetitions) {
  const Judgement j = judge({1000, 1001}, {2000, 2001, 2002}, true, {});
  EXPECT_EQ(j.verdict, Verdict::kNotApplicable);
  EXPECT_NE(j.reason.find("cannot tell: 2 and 3 repetitions"), std::string::npos) << j.reason;
  ASSERT_TRUE(j.change_pct.has_value());  // the change is still shown
}

TEST(Verdict, CannotTellWhenNoPValueCanReachAlpha) {
  const Judgement j = judge({1, 2, 3}, {10, 11, 12}, true, {});
  EXPECT_EQ(j.verdict, Verdict::kNotApplicable);
  EXPECT_NE(j.reason.find("smallest possible p is 0.1"), std::string::npos) << j.reason;
  VerdictSettings loose;
  loose.alpha = 0.2;
  EXPECT_EQ(judge({1, 2, 3}, {10, 11, 12}, true, loose).verdict, Verdict::kBetter);
}

TEST(Verdict, MissingMetricIsNotApplicable) {
  EXPECT_EQ(judge({}, kBase, true, {}).reason, "not in the old result");
  EXPECT_EQ(judge(kBase, {}, true, {}).reason, "not in the new result");
}

TEST(Verdict, NoiseFloorIsAdjustable) {
  VerdictSettings wide;
  wide.noise_pct = 25;
  EXPECT_EQ(judge(kBase, {1200, 1210, 1190, 1205, 1195}, true, wide).verdict, Verdict::kWithinNoise);
}

TEST(Verdict, MedianOfEvenAndOddCounts) {
  EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
}

TEST(Verdict, CompareMetricsJoinsRepetitionsByKey) {
  auto run = [](double iops, double p99) {
    return std::vector<Metric>{{"j", "read", "iops", MetricUnit::kIops, true, iops},
                               {"j", "read", "p99", MetricUnit::kNanoseconds, false, p99}};
  };
  const std::vector<std::vector<Metric>> old_runs = {run(100, 50), run(101, 51), run(99, 49), run(100, 50)};
  std::vector<std::vector<Metric>> new_runs = {run(150, 40), run(151, 41), run(149, 39), run(152, 40)};
  new_runs.back().push_back({"k", "write", "iops", MetricUnit::kIops, true, 7});
  const std::vector<CompareRow> rows = compare_metrics(old_runs, new_runs, {});
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].metric, "iops");
  EXPECT_EQ(rows[0].old_values.size(), 4u);
  EXPECT_EQ(rows[0].judgement.verdict, Verdict::kBetter);
  EXPECT_EQ(rows[1].judgement.verdict, Verdict::kBetter);  // p99 fell: lower is better
  EXPECT_EQ(rows[2].job, "k");
  EXPECT_EQ(rows[2].judgement.verdict, Verdict::kNotApplicable);
}

}  // namespace
}  // namespace sluice
