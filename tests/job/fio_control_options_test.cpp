// Parsing of fio's job-control, steady-state and log options (options_fio_control.cpp) and the run-level
// overrides (run_overrides.cpp).
#include <gtest/gtest.h>

#include "common/error.h"
#include "job/job_with.h"
#include "job/option_table.h"
#include "job/run_overrides.h"

namespace sluice {
namespace {

using testing::job_with;

TEST(FioControlOptions, SteadyStatePercentLimit) {
  const JobSpec job = job_with({{"ss", "iops_slope:0.3%"}, {"ss_dur", "30"}, {"ss_ramp", "5s"}});
  EXPECT_EQ(job.steady_state.ss_criterion, SteadyStateCriterion::kIopsSlope);
  EXPECT_DOUBLE_EQ(job.steady_state.ss_limit, 0.3);
  EXPECT_TRUE(job.steady_state.ss_limit_is_percent);
  EXPECT_EQ(job.steady_state.ss_duration, std::chrono::seconds(30));
  EXPECT_EQ(job.steady_state.ss_ramp, std::chrono::seconds(5));
}

TEST(FioControlOptions, SteadyStateAbsoluteBwTakesASize) {
  const JobSpec job = job_with({{"steadystate", "bw:1m"}});
  EXPECT_EQ(job.steady_state.ss_criterion, SteadyStateCriterion::kBw);
  EXPECT_DOUBLE_EQ(job.steady_state.ss_limit, 1048576.0);
  EXPECT_FALSE(job.steady_state.ss_limit_is_percent);
}

TEST(FioControlOptions, SteadyStateRejectsUnknownCriterion) {
  EXPECT_THROW(job_with({{"ss", "latency:5%"}}), UserError);
  EXPECT_THROW(job_with({{"ss", "clat:5%"}}), UserError);
}

// fio 3.42's ss=lat|lat_slope: a bare limit is in nanoseconds; a unit gives the time it names.
TEST(FioControlOptions, SteadyStateLatencyLimitIsATimeInNanoseconds) {
  const JobSpec bare = job_with({{"ss", "lat:500"}});
  EXPECT_EQ(bare.steady_state.ss_criterion, SteadyStateCriterion::kLat);
  EXPECT_DOUBLE_EQ(bare.steady_state.ss_limit, 500.0);
  EXPECT_FALSE(bare.steady_state.ss_limit_is_percent);
  EXPECT_DOUBLE_EQ(job_with({{"ss", "lat:50us"}}).steady_state.ss_limit, 50'000.0);
  EXPECT_DOUBLE_EQ(job_with({{"ss", "lat_slope:2ms"}}).steady_state.ss_limit, 2'000'000.0);
  const JobSpec percent = job_with({{"steadystate", "lat_slope:0.5%"}});
  EXPECT_EQ(percent.steady_state.ss_criterion, SteadyStateCriterion::kLatSlope);
  EXPECT_DOUBLE_EQ(percent.steady_state.ss_limit, 0.5);
  EXPECT_TRUE(percent.steady_state.ss_limit_is_percent);
}

// ramp_size lives in options_time_rate.cpp; parsed here beside the other fio 3.42 options.
TEST(FioControlOptions, RampSizeIsASizeOfAtLeastOneByte) {
  EXPECT_EQ(JobSpec{}.time.ramp_size, 0u);
  EXPECT_EQ(job_with({{"ramp_size", "64m"}}).time.ramp_size, 64u << 20);
  EXPECT_EQ(job_with({{"ramp_size", "4096"}}).time.ramp_size, 4096u);
  for (const char* bad : {"0", "10%", "abc", ""}) {
    EXPECT_THROW(job_with({{"ramp_size", bad}}), UserError) << bad;
  }
}

TEST(FioControlOptions, EndSyncfsIsABool) {
  EXPECT_FALSE(JobSpec{}.durability.end_syncfs);
  EXPECT_TRUE(job_with({{"end_syncfs", "1"}}).durability.end_syncfs);
  EXPECT_THROW(job_with({{"end_syncfs", "maybe"}}), UserError);
}

TEST(FioControlOptions, SteadyStateLatencyRejectsWhatIsNoTime) {
  for (const char* bad : {"lat:", "lat:abc", "lat:5q", "lat:-5", "lat_slope:1MiB"}) {
    try {
      job_with({{"ss", bad}});
      ADD_FAILURE() << bad << " was accepted";
    } catch (const UserError& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("steadystate=") + bad), std::string::npos) << e.what();
    }
  }
}

TEST(FioControlOptions, FlowTakesNegativeWeights) {
  EXPECT_EQ(job_with({{"flow", "-8"}}).control.flow, -8);
  EXPECT_EQ(job_with({{"flow", "2"}, {"flow_id", "3"}}).control.flow_id, 3u);
}

TEST(FioControlOptions, PercentageRandomOneValueForAll) {
  EXPECT_EQ(job_with({{"percentage_random", "30"}}).workload.percentage_random, 30u);
  EXPECT_EQ(job_with({{"percentage_random", "30,30"}}).workload.percentage_random, 30u);
  EXPECT_THROW(job_with({{"percentage_random", "30,50"}}), UserError);
}

TEST(FioControlOptions, FilenameFormatRefusesClientUid) {
  EXPECT_EQ(job_with({{"filename_format", "$jobname.$filenum"}}).target.filename_format, "$jobname.$filenum");
  EXPECT_THROW(job_with({{"filename_format", "f.$clientuid"}}), UserError);
}

TEST(FioControlOptions, UnifiedRwReportingChoices) {
  EXPECT_TRUE(job_with({{"unified_rw_reporting", "1"}}).report.unified_rw_reporting);
  EXPECT_TRUE(job_with({{"unified_rw_reporting", "both"}}).report.unified_rw_reporting);
  EXPECT_FALSE(job_with({{"unified_rw_reporting", "none"}}).report.unified_rw_reporting);
}

TEST(FioControlOptions, MaxLatencyBareNumberIsMicroseconds) {
  EXPECT_EQ(job_with({{"max_latency", "250"}}).latency.max_latency, std::chrono::microseconds(250));
}

TEST(FioControlOptions, RateMinPerDirection) {
  const JobSpec job = job_with({{"ratemin", ",1m"}, {"rate_iops_min", "100"}});
  EXPECT_EQ(job.pacing.rate_min[0], 0u);
  EXPECT_EQ(job.pacing.rate_min[1], 1048576u);
  EXPECT_EQ(job.pacing.rate_iops_min[2], 100u);
}

TEST(FioControlOptions, ClocksourceKeepsFiosChoice) {
  EXPECT_EQ(job_with({{"clocksource", "clock_gettime"}}).report.clocksource, "clock_gettime");
  EXPECT_EQ(job_with({{"clocksource", "cpu"}}).report.clocksource, "cpu");
  EXPECT_EQ(job_with({}).report.clocksource, "");
  EXPECT_THROW(job_with({{"clocksource", "tsc"}}), UserError);
}

TEST(FioControlOptions, SignificantFiguresAndUnitBase) {
  EXPECT_EQ(job_with({}).report.significant_figures, 4u);
  EXPECT_EQ(job_with({{"significant_figures", "10"}}).report.significant_figures, 10u);
  EXPECT_THROW(job_with({{"significant_figures", "0"}}), UserError);
  EXPECT_THROW(job_with({{"significant_figures", "11"}}), UserError);
  EXPECT_FALSE(job_with({{"unit_base", "8"}}).report.unit_base_bits);
  EXPECT_FALSE(job_with({{"unit_base", "0"}}).report.unit_base_bits);
  EXPECT_TRUE(job_with({{"unit_base", "1"}}).report.unit_base_bits);
  EXPECT_THROW(job_with({{"unit_base", "2"}}), UserError);
}

TEST(FioControlOptions, EveryNewOptionHasHelp) {
  for (const char* name : {"wait_for",
                           "exitall",
                           "flow",
                           "flow_id",
                           "flow_sleep",
                           "max_latency",
                           "rate_min",
                           "rate_iops_min",
                           "percentage_random",
                           "random_generator",
                           "clocksource",
                           "filename_format",
                           "offset_increment",
                           "unified_rw_reporting",
                           "significant_figures",
                           "unit_base",
                           "disable_lat",
                           "disable_clat",
                           "disable_slat",
                           "write_hist_log",
                           "log_hist_msec",
                           "per_job_logs",
                           "steadystate",
                           "ss_dur",
                           "ss_ramp",
                           "ss_interval"}) {
    const OptionDef* def = find_option(name);
    ASSERT_NE(def, nullptr) << name;
    EXPECT_TRUE(def->supported) << name;
    EXPECT_FALSE(def->help.empty()) << name;
  }
}

TEST(RunOverrides, CapsSizeAndRuntime) {
  RunOverrides overrides;
  ASSERT_TRUE(parse_run_override("cap-size", "1m", overrides));
  ASSERT_TRUE(parse_run_override("cap-runtime", "200ms", overrides));
  ASSERT_TRUE(parse_run_override("override", "directory=/scratch", overrides));
  std::vector<JobSpec> jobs = {job_with({{"size", "10g"}, {"runtime", "60"}}), job_with({{"size", "50%"}})};
  apply_run_overrides(jobs, overrides);
  EXPECT_EQ(jobs[0].target.size.bytes, 1048576u);
  EXPECT_EQ(jobs[0].time.runtime, std::chrono::milliseconds(200));
  EXPECT_EQ(jobs[1].target.size.bytes, 1048576u);
  EXPECT_EQ(jobs[1].target.size.percent, 0.0);
  EXPECT_EQ(jobs[1].time.runtime, std::chrono::milliseconds(200));  // size-based jobs stop by the cap too
  EXPECT_EQ(jobs[0].target.directory, "/scratch");
}

TEST(RunOverrides, UnknownOptionSuggestsTheNearest) {
  RunOverrides overrides;
  try {
    parse_run_override("override", "directry=/x", overrides);
    FAIL();
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("did you mean 'directory'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace sluice
