#include "run/plan.h"

#include <gtest/gtest.h>

namespace sluice {
namespace {

JobSpec job(const std::string& name) {
  JobSpec j;
  j.name = name;
  return j;
}

TEST(Plan, JobsWithoutStonewallShareOneGroup) {
  const auto plan = make_plan({job("a"), job("b")});
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].jobs.size(), 2u);
}

TEST(Plan, StonewallAndNewGroupStartGroups) {
  JobSpec b = job("b");
  b.control.stonewall = true;
  JobSpec c = job("c");
  c.control.new_group = true;
  const auto plan = make_plan({job("a"), b, c});
  ASSERT_EQ(plan.size(), 3u);
  EXPECT_EQ(plan[2].groupid, 2);
  EXPECT_EQ(plan[2].jobs[0].groupid, 2);
}

TEST(Plan, NumjobsClonesWithDistinctSeeds) {
  JobSpec a = job("a");
  a.control.numjobs = 3;
  const auto plan = make_plan({a});
  ASSERT_EQ(plan[0].jobs.size(), 3u);
  EXPECT_EQ(plan[0].jobs[2].jobnum, 2);
  EXPECT_NE(plan[0].jobs[0].seed, plan[0].jobs[1].seed);
}

// Two jobs with the same options must not issue the same offsets or write the same data (fio's seeds move
// with the thread number); the seed follows the clone's place in the run, across groups too.
TEST(Plan, JobsWithTheSameOptionsGetDistinctSeeds) {
  JobSpec b = job("b");
  b.control.numjobs = 2;
  JobSpec c = job("c");
  c.control.stonewall = true;
  const auto plan = make_plan({job("a"), b, c});
  ASSERT_EQ(plan.size(), 2u);
  const std::uint64_t a_seed = plan[0].jobs[0].seed;
  EXPECT_NE(plan[0].jobs[1].seed, a_seed);
  EXPECT_EQ(plan[0].jobs[2].seed, a_seed + 2 * kCloneSeedStep);
  EXPECT_EQ(plan[1].jobs[0].seed, a_seed + 3 * kCloneSeedStep);
  for (const auto& group : plan) {
    for (const auto& instance : group.jobs) EXPECT_EQ(instance.run_clones, 4);
  }
}

TEST(Plan, GroupReportingOfAnyJobAppliesToItsGroup) {
  JobSpec b = job("b");
  b.report.group_reporting = true;
  const auto plan = make_plan({job("a"), b});
  EXPECT_TRUE(plan[0].group_reporting);
}

TEST(Plan, RandrepeatOffMixesInTheTimeSeed) {
  JobSpec a = job("a");
  a.workload.randrepeat = false;
  EXPECT_NE(make_plan({a}, 1)[0].jobs[0].seed, make_plan({a}, 2)[0].jobs[0].seed);
  a.workload.randrepeat = true;
  EXPECT_EQ(make_plan({a}, 1)[0].jobs[0].seed, make_plan({a}, 2)[0].jobs[0].seed);
}

}  // namespace
}  // namespace sluice

namespace sluice {
namespace {

TEST(Plan, LogNumbersCountEveryCloneOfTheRun) {
  JobSpec a;
  a.name = "a";
  a.control.numjobs = 2;
  JobSpec b;
  b.name = "b";
  b.control.stonewall = true;
  const auto plan = make_plan({a, b});
  EXPECT_EQ(plan[0].jobs[1].lognum, 1);
  EXPECT_EQ(plan[1].jobs[0].lognum, 2);
}

}  // namespace
}  // namespace sluice
