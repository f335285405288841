// fio's job control on the null engine: wait_for, exitall, flow, max_latency, disable_*lat, and the
// per-clone expansion of filename_format and offset_increment. rate_iops_min, rate_min and steadystate run
// on a fake clock in io_loop_fake_clock_test.cpp.
#include "run/job_control.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "job/job_spec.h"
#include "run/plan.h"
#include "run/run_test_support.h"
#include "run/runner.h"
#include "workload/io_pattern.h"

namespace sluice {
namespace {

using namespace std::chrono_literals;

using testing::null_job;
using testing::quiet;

const JobResult& job_named(const RunResult& r, const std::string& name) {
  for (const GroupResult& g : r.groups) {
    for (const JobResult& j : g.jobs) {
      if (j.name == name) return j;
    }
  }
  throw std::runtime_error("no job " + name);
}

TEST(JobControl, PlanningRefusesAWaitForThatNamesNoEarlierJob) {
  JobSpec first = null_job("a");
  first.control.wait_for = "b";
  EXPECT_THROW(make_plan({first, null_job("b")}, 1), UserError);
}

TEST(JobControl, WaitForStartsAfterTheWaiteeEnds) {
  JobSpec first = null_job("first");
  first.time.time_based = true;
  first.time.runtime = 50ms;  // long beside the null ios of "second", which would start at once without wait_for
  JobSpec second = null_job("second");
  second.control.wait_for = "first";
  const RunResult r = run_jobs({first, second}, quiet());
  ASSERT_EQ(r.groups.size(), 1u);  // same group: no stonewall
  EXPECT_GE(job_named(r, "second").start_ns, job_named(r, "first").end_ns);
}

TEST(JobControl, ExitallStopsTheGroup) {
  JobSpec quick = null_job("quick", RwMode::kRandRead, 1 << 20);
  quick.control.exitall = true;
  JobSpec slow = null_job("slow");
  slow.time.time_based = true;
  slow.time.runtime = 20s;
  const auto start = std::chrono::steady_clock::now();
  const RunResult r = run_jobs({quick, slow}, quiet());
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
  EXPECT_EQ(job_named(r, "slow").error, 0);
  EXPECT_FALSE(job_named(r, "slow").interrupted);
}

TEST(JobControl, MaxLatencyStopsWithEtimedout) {
  JobSpec job = null_job("m", RwMode::kRandRead, 1 << 30);
  job.latency.max_latency = 1ns;
  const RunResult run = run_jobs({job}, quiet());
  const JobResult& r = run.groups.at(0).jobs.at(0);
  EXPECT_EQ(r.error, ETIMEDOUT);
  EXPECT_TRUE(r.stopped_by_max_latency);
  EXPECT_NE(r.error_message.find("exceeds specified max (1 nsec)"), std::string::npos) << r.error_message;
  EXPECT_LT(r.dirs[0].ios, 1000u);
}

TEST(JobControl, DisableLatZeroesTheStatistics) {
  JobSpec job = null_job("d");
  job.report.disable_lat = true;
  job.report.disable_clat = true;
  const RunResult run = run_jobs({job}, quiet());
  const JobResult& r = run.groups.at(0).jobs.at(0);
  EXPECT_EQ(r.dirs[0].ios, 256u);
  EXPECT_EQ(r.dirs[0].lat.count(), 0u);
  EXPECT_EQ(r.dirs[0].clat.count(), 0u);
}

// The share arithmetic alone, without threads: a job stays ahead, whatever it does, until the others' ios (or
// their leaving) give it room, 16 ios of slack per weight.
TEST(JobControl, FlowGroupHoldsAJobAheadUntilTheOthersCatchUp) {
  FlowGroup group;
  const std::size_t one = group.join(1);
  const std::size_t four = group.join(4);
  for (int i = 0; i < 100; ++i) group.count(one);
  EXPECT_TRUE(group.ahead(one));  // 100 of 100 ios where its share is a fifth
  EXPECT_TRUE(group.ahead(one));  // asking again counts nothing: still ahead
  EXPECT_FALSE(group.ahead(four));
  for (int i = 0; i < 400; ++i) group.count(four);
  EXPECT_FALSE(group.ahead(one));  // 100 of 500: its share
  group.leave(four);
  for (int i = 0; i < 100; ++i) group.count(one);
  EXPECT_FALSE(group.ahead(one));  // alone now: never ahead
}

TEST(JobControl, FlowKeepsTheRatioOfWeights) {
  // The ratio is of io counts, not of time: "four" ends after 4,000 ios and stops the group (exitall), so
  // the run lasts as long as 5,000 null ios take (milliseconds; it ran a second of wall time before), and a
  // busy machine changes the run's length, not the counts. Without flow, "one" would do as many as "four".
  JobSpec one = null_job("one", RwMode::kRandRead, 1 << 30);
  one.time.time_based = true;
  one.time.runtime = 60s;
  one.control.flow = 1;
  JobSpec four = null_job("four", RwMode::kRandRead, 1 << 30);
  four.time.number_ios = 4000;
  four.control.exitall = true;
  four.control.flow = 4;
  one.control.flow_sleep = 100us;
  four.control.flow_sleep = 100us;
  const RunResult r = run_jobs({one, four}, quiet());
  EXPECT_EQ(job_named(r, "four").dirs[0].ios, 4000u);
  const double ratio = static_cast<double>(job_named(r, "four").dirs[0].ios) /
                       static_cast<double>(std::max<std::uint64_t>(1, job_named(r, "one").dirs[0].ios));
  EXPECT_NEAR(ratio, 4.0, 1.0);
}

TEST(JobControl, FilenameFormatNamesTheClonesFiles) {
  EXPECT_EQ(expand_filename_format("$jobname-$jobnum/$filenum.dat", "j", 2, 1), "j-2/1.dat");
  JobSpec job = null_job("j");
  job.target.filename_format = "data.$jobnum.$filenum";
  job.target.nrfiles = 2;
  job.control.numjobs = 2;
  const std::vector<GroupPlan> plan = make_plan({job});
  EXPECT_EQ(plan[0].jobs[1].spec.target.filenames, (std::vector<std::string>{"data.1.0", "data.1.1"}));
}

TEST(JobControl, OffsetIncrementMovesEachClone) {
  JobSpec job = null_job("j");
  job.target.offset.bytes = 4096;
  job.target.offset_increment = 1 << 20;
  job.control.numjobs = 3;
  const std::vector<GroupPlan> plan = make_plan({job});
  EXPECT_EQ(plan[0].jobs[2].spec.target.offset.bytes, 4096u + 2 * (1u << 20));
}

int sequential_steps(std::uint32_t percentage_random) {
  JobSpec job = null_job("p", RwMode::kRandRead, 1 << 24);
  job.workload.percentage_random = percentage_random;
  IoPattern pattern(job, {{0, 1 << 24}}, 7);
  NextIo io;
  std::uint64_t next = ~0ull;
  int sequential = 0;
  for (int i = 0; i < 1000 && pattern.next(io); ++i) {
    sequential += io.offset == next ? 1 : 0;
    next = io.offset + io.length;
  }
  return sequential;
}

TEST(JobControl, PercentageRandomMixesSequentialIos) {
  EXPECT_LT(sequential_steps(100), 20);  // random: a neighbour only by chance
  EXPECT_GT(sequential_steps(0), 990);   // all sequential
  const int half = sequential_steps(50);
  EXPECT_GT(half, 400);
  EXPECT_LT(half, 600);
}

}  // namespace
}  // namespace sluice
