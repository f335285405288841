// Checks across jobs: wait_for must name an earlier job; offset_increment needs an absolute offset; one
// ramp_size per group.
#include <gtest/gtest.h>

#include "job/validate.h"

namespace sluice {
namespace {

JobSpec null_job(const std::string& name) {
  JobSpec job;
  job.name = name;
  job.engine.ioengine = EngineKind::kNull;
  job.target.size.bytes = 1 << 20;
  return job;
}

TEST(ValidateAcrossJobs, WaitForAnEarlierJobIsAccepted) {
  JobSpec second = null_job("reader");
  second.control.wait_for = "writer";
  EXPECT_TRUE(validate_across_jobs({null_job("writer"), second}).empty());
}

TEST(ValidateAcrossJobs, WaitForUnknownNameSuggestsTheNearestAtTheOptionsLine) {
  JobSpec second = null_job("reader");
  second.control.wait_for = "writr";
  second.option_pos["wait_for"] = SourcePos{"jobs.fio", 12};
  const std::vector<Problem> problems = validate_across_jobs({null_job("writer"), second});
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].severity, Problem::Severity::kError);
  EXPECT_EQ(problems[0].where.describe(), "jobs.fio:12");
  EXPECT_EQ(problems[0].option, "wait_for");
  EXPECT_NE(problems[0].message.find("did you mean 'writer'"), std::string::npos) << problems[0].message;
}

TEST(ValidateAcrossJobs, WaitForALaterJobIsRefused) {
  JobSpec first = null_job("a");
  first.control.wait_for = "b";
  EXPECT_TRUE(has_error(validate_across_jobs({first, null_job("b")})));
}

TEST(ValidateAcrossJobs, AJobCannotWaitForItself) {
  JobSpec job = null_job("a");
  job.control.wait_for = "a";
  const std::vector<Problem> problems = validate_across_jobs({job});
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].message.find("cannot wait for itself"), std::string::npos);
}

TEST(ValidateAcrossJobs, OffsetIncrementWithAPercentageOffsetIsRefused) {
  JobSpec job = null_job("a");
  job.target.offset_increment = 4096;
  job.target.offset.percent = 10.0;
  EXPECT_TRUE(has_error(validate_across_jobs({job})));
}

TEST(ValidateAll, CombinesPerJobAndCrossJobProblems) {
  JobSpec second = null_job("b");
  second.control.wait_for = "nobody";
  EXPECT_TRUE(has_error(validate_all({null_job("a"), second})));
  EXPECT_FALSE(has_error(validate_all({null_job("a"), null_job("b")})));
}

// ramp_size (fio 3.42): one value per group; a stonewall starts a new group.
TEST(ValidateAcrossJobs, RampSizeDiffersWithinAGroupIsRefused) {
  JobSpec first = null_job("a");
  first.time.ramp_size = 1 << 20;
  JobSpec second = null_job("b");
  second.time.ramp_size = 2 << 20;
  const std::vector<Problem> problems = validate_across_jobs({first, second});
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].option, "ramp_size");
  EXPECT_NE(problems[0].message.find("job b: ramp_size=2097152 differs from job a's 1048576"), std::string::npos)
      << problems[0].message;
  second.control.stonewall = true;
  EXPECT_TRUE(validate_across_jobs({first, second}).empty());
  second.control.stonewall = false;
  second.time.ramp_size = first.time.ramp_size;
  EXPECT_TRUE(validate_across_jobs({first, second}).empty());
}

// steadystate under group_reporting judges the group as one: one set of options per group (fio refuses the
// rest); without group_reporting each job is judged alone and may have its own.
TEST(ValidateAcrossJobs, SteadyStateDiffersWithinAReportingGroupIsRefused) {
  JobSpec first = null_job("a");
  first.steady_state.ss_criterion = SteadyStateCriterion::kLat;
  first.steady_state.ss_limit = 10;
  first.steady_state.ss_limit_is_percent = true;
  first.steady_state.ss_duration = std::chrono::seconds(2);
  JobSpec second = first;
  second.name = "b";
  second.steady_state.ss_limit = 20;
  EXPECT_TRUE(validate_across_jobs({first, second}).empty()) << "no group_reporting: each judged alone";
  first.report.group_reporting = second.report.group_reporting = true;
  const std::vector<Problem> problems = validate_across_jobs({first, second});
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].option, "steadystate");
  EXPECT_NE(problems[0].message.find("job b: its steadystate options differ from job a's"), std::string::npos)
      << problems[0].message;
  second.control.stonewall = true;
  EXPECT_TRUE(validate_across_jobs({first, second}).empty());
  second.control.stonewall = false;
  second.steady_state.ss_limit = first.steady_state.ss_limit;
  EXPECT_TRUE(validate_across_jobs({first, second}).empty());
}

}  // namespace
}  // namespace sluice
