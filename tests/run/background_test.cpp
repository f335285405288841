// role=background: planning and the runner on the null engine.
#include <gtest/gtest.h>

#include "common/error.h"
#include "run/plan.h"
#include "run/run_test_support.h"
#include "run/runner.h"

namespace sluice {
namespace {

using namespace std::chrono_literals;

using testing::null_job;
using testing::quiet;

JobSpec background(JobSpec job) {
  job.control.role = JobRole::kBackground;
  return job;
}

TEST(BackgroundPlan, BackgroundJobIsMadeTimeBased) {
  const auto plan =
      make_plan({null_job("fg", RwMode::kRead, 1 << 20), background(null_job("bg", RwMode::kWrite, 1 << 20))});
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_FALSE(plan[0].jobs[0].spec.time.time_based);
  EXPECT_TRUE(plan[0].jobs[1].spec.time.time_based);
  EXPECT_EQ(plan[0].foreground_jobs(), 1u);
}

TEST(BackgroundPlan, GroupOfOnlyBackgroundJobsIsRefused) {
  EXPECT_THROW(make_plan({background(null_job("bg", RwMode::kWrite, 1 << 20))}), UserError);
}

TEST(BackgroundPlan, OnlyBackgroundInASecondGroupIsRefused) {
  JobSpec second = background(null_job("bg", RwMode::kWrite, 1 << 20));
  second.control.stonewall = true;
  EXPECT_THROW(make_plan({null_job("fg", RwMode::kRead, 1 << 20), second}), UserError);
}

TEST(BackgroundRunner, BackgroundStopsWhenForegroundEnds) {
  JobSpec fg = null_job("fg", RwMode::kRead, 1 << 20);
  fg.time.time_based = true;
  fg.time.runtime = 100ms;  // hundreds of passes of the background's 1 MiB of null writes, even on a busy machine
  const RunResult r = run_jobs({fg, background(null_job("bg", RwMode::kWrite, 1 << 20))}, quiet());
  ASSERT_EQ(r.groups.at(0).jobs.size(), 2u);
  const JobResult& bg = r.groups[0].jobs[1];
  EXPECT_TRUE(bg.settings.background);
  EXPECT_FALSE(bg.interrupted);
  EXPECT_FALSE(r.interrupted);
  // It started before the foreground, repeated its 1 MiB many times, and ended with it.
  EXPECT_GT(bg.dirs[1].bytes, 1u << 20);
  EXPECT_LT(bg.runtime_ns, 2'000'000'000u);
  EXPECT_LE(bg.start_ns, r.groups[0].jobs[0].start_ns);
}

TEST(BackgroundRunner, BackgroundEndingFirstDoesNotEndTheGroup) {
  JobSpec fg = null_job("fg", RwMode::kRead, 1 << 20);
  fg.time.time_based = true;
  fg.time.runtime = 250ms;
  JobSpec bg = background(null_job("bg", RwMode::kWrite, 1 << 20));
  bg.time.runtime = 20ms;
  const RunResult r = run_jobs({fg, bg}, quiet());
  // The foreground runs its whole runtime; the background ends at its own (160 ms of room for a busy
  // machine's late wake-up), not at the foreground's.
  EXPECT_GE(r.groups.at(0).jobs.at(0).runtime_ns, 240'000'000u);
  EXPECT_LT(r.groups[0].jobs[1].runtime_ns, 180'000'000u);
}

TEST(BackgroundRunner, ForegroundResultIsUnchangedByTheBackgroundRole) {
  const RunResult r =
      run_jobs({null_job("fg", RwMode::kRead, 1 << 20), background(null_job("bg", RwMode::kWrite, 4096))}, quiet());
  EXPECT_EQ(r.groups.at(0).jobs.at(0).dirs[0].bytes, 1u << 20);
  EXPECT_FALSE(r.groups[0].jobs[0].settings.background);
}

}  // namespace
}  // namespace sluice
