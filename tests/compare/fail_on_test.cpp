#include "compare/fail_on.h"

#include <gtest/gtest.h>

#include "common/error.h"

namespace sluice {
namespace {

CompareRow row(const std::string& metric, bool higher_is_better, std::vector<double> old_values,
               std::vector<double> new_values) {
  CompareRow r{"j", "read", metric, MetricUnit::kIops, higher_is_better, old_values, new_values, {}};
  r.judgement = judge(old_values, new_values, higher_is_better, {});
  return r;
}

TEST(FailOn, ParsesSignedPercentRules) {
  const std::vector<FailRule> rules = parse_fail_on({"p99:+10%", "iops:-5%", "p99.9:+2.5%"});
  ASSERT_EQ(rules.size(), 3u);
  EXPECT_EQ(rules[0].metric, "p99");
  EXPECT_DOUBLE_EQ(rules[0].threshold_pct, 10);
  EXPECT_DOUBLE_EQ(rules[1].threshold_pct, -5);
  EXPECT_DOUBLE_EQ(rules[2].threshold_pct, 2.5);
}

TEST(FailOn, RefusesBadRulesNamingThem) {
  for (const char* bad : {"p99", "p99:10%", "p99:+10", "p99:+x%", "p98:+10%"}) {
    SCOPED_TRACE(bad);
    EXPECT_THROW(parse_fail_on({bad}), UserError);
  }
  try {
    parse_fail_on({"p98:+10%"});
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("did you mean p99?"), std::string::npos) << e.what();
  }
}

TEST(FailOn, FiresOnlyOnSignificantChangesBeyondTheThreshold) {
  const std::vector<FailRule> rules = parse_fail_on({"p99:+10%", "iops:-5%"});
  const std::vector<double> base = {100, 101, 99, 100};
  // p99 up 20%, significant: fires.
  EXPECT_EQ(fail_on_hits({row("p99", false, base, {120, 121, 119, 120})}, rules).size(), 1u);
  // p99 up 5%: significant but below the rule.
  EXPECT_TRUE(fail_on_hits({row("p99", false, base, {105, 106, 104, 105})}, rules).empty());
  // iops up 20%: the rule is about a fall.
  EXPECT_TRUE(fail_on_hits({row("iops", true, base, {120, 121, 119, 120})}, rules).empty());
  // iops down 20%: fires.
  EXPECT_EQ(fail_on_hits({row("iops", true, base, {80, 81, 79, 80})}, rules).size(), 1u);
  // p99 up 20% on two repetitions: cannot tell, so it does not fire.
  EXPECT_TRUE(fail_on_hits({row("p99", false, {100, 101}, {120, 121})}, rules).empty());
  // p99 up 20% but overlapping: not significant.
  EXPECT_TRUE(fail_on_hits({row("p99", false, {50, 150, 100, 90}, {160, 60, 120, 130})}, rules).empty());
}

}  // namespace
}  // namespace sluice
