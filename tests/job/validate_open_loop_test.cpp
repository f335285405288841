// Validation of the sluice extensions open_loop and rw=randrmw.
#include <gtest/gtest.h>

#include "job/option_table.h"
#include "job/validate.h"

namespace sluice {
namespace {

std::vector<Problem> errors_of(const JobSpec& job) {
  std::vector<Problem> errors;
  for (const Problem& p : validate(job)) {
    if (p.severity == Problem::Severity::kError) errors.push_back(p);
  }
  return errors;
}

TEST(ValidateOpenLoop, WithoutARateIsAnErrorNamingTheOption) {
  JobSpec job;
  job.pacing.open_loop = true;
  const std::vector<Problem> errors = errors_of(job);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].option, "open_loop");
  EXPECT_NE(errors[0].message.find("rate_iops"), std::string::npos) << errors[0].message;
}

TEST(ValidateOpenLoop, IoSubmitModeOffloadIsTheOpenLoopOnlyWithARate) {
  JobSpec job;
  apply_option(job, "io_submit_mode", "offload", SourcePos{});
  EXPECT_TRUE(job.pacing.submit_offload);
  EXPECT_FALSE(job.open_loop_active());  // no rate: fio's offload then only moves submission to a thread
  apply_option(job, "rate_iops", "50", SourcePos{});
  EXPECT_TRUE(job.open_loop_active());
  EXPECT_TRUE(errors_of(job).empty());
  apply_option(job, "io_submit_mode", "inline", SourcePos{});
  EXPECT_FALSE(job.open_loop_active());
}

TEST(ValidateOpenLoop, ARateOfAnotherDirectionDoesNotCount) {
  JobSpec job;
  job.pacing.open_loop = true;
  job.workload.rw = RwMode::kRandRead;
  job.pacing.rate_iops = {0, 1000, 0};
  EXPECT_EQ(errors_of(job).size(), 1u);
}

TEST(ValidateOpenLoop, RateIopsOrRateIsEnough) {
  JobSpec job;
  job.pacing.open_loop = true;
  job.pacing.rate_iops = {1000, 1000, 1000};
  EXPECT_TRUE(errors_of(job).empty());
  job.pacing.rate_iops = {0, 0, 0};
  job.pacing.rate = {1 << 20, 0, 0};
  EXPECT_TRUE(errors_of(job).empty());
}

TEST(ValidateOpenLoop, OptionParsesAsAFlag) {
  JobSpec job;
  apply_option(job, "open_loop", "", SourcePos{});
  EXPECT_TRUE(job.pacing.open_loop);
}

TEST(RandRmwOption, ParsesAndIsRandomReadWrite) {
  JobSpec job;
  apply_option(job, "rw", "randrmw", SourcePos{});
  EXPECT_EQ(job.workload.rw, RwMode::kRandRmw);
  EXPECT_TRUE(job.is_random());
  EXPECT_TRUE(job.does_reads());
  EXPECT_TRUE(job.does_writes());
  EXPECT_EQ(rw_mode_name(job.workload.rw), "randrmw");
}

}  // namespace
}  // namespace sluice
