// sluice quick's driver on a fake clock: a fake capacity search and fake fixed tests that take their slot of
// the budget on that clock and return made-up counts, so the budget arithmetic is exact and no wall time
// passes (the real runs, end to end, are tests/cli/it_quick_test.cpp). The file is still laid out for real
// (8 MiB in a temporary directory), so creating and removing it is tested here too.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "common/stop_signal.h"
#include "method/quick.h"
#include "support/fake_engine.h"
#include "support/temp_dir.h"

namespace sluice {
namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;

// Spends the whole budget it is given on the fake clock, as the real search does at most.
struct FakeCapacity {
  explicit FakeCapacity(testing::FakeClock& c) : clock(c) {}
  testing::FakeClock& clock;
  std::vector<CapacityRequest> requests;
  bool within_limit = true;

  CapacityResult operator()(const CapacityRequest& request) {
    requests.push_back(request);
    clock.advance(static_cast<std::uint64_t>(request.budget.count()));
    CapacityResult r;
    CapacityPoint one;
    one.iops = 1000;
    one.lat_mean_ns = 1e6;
    one.within_slo = within_limit;
    CapacityPoint eight = one;
    eight.iodepth = 8;
    eight.iops = 6000;
    eight.lat_mean_ns = 1.3e6;
    r.curve = {one, eight};
    if (within_limit) r.answer = eight;
    return r;
  }
};

// A fixed test of 1000 IOPS that takes its ramp and runtime on the fake clock, as a time-based job does.
struct FakeFixedTests {
  explicit FakeFixedTests(testing::FakeClock& c) : clock(c) {}
  testing::FakeClock& clock;
  std::vector<JobSpec> jobs;

  RunResult operator()(const std::vector<JobSpec>& batch, const RunnerOptions&) {
    const JobSpec& job = batch.front();
    jobs.push_back(job);
    clock.advance(static_cast<std::uint64_t>((job.time.ramp_time + job.time.runtime).count()));
    JobResult result;
    result.name = job.name;
    result.settings.iodepth = job.queue.iodepth;
    result.runtime_ns = static_cast<std::uint64_t>(job.time.runtime.count());
    const Direction direction = job.does_writes() ? Direction::kWrite : Direction::kRead;
    DirectionStats& d = result.dirs[index_of(direction)];
    d.ios = result.runtime_ns / 1'000'000;  // 1000 per second
    d.bytes = d.ios * job.workload.bs[index_of(direction)];
    if (job.durability.fsync_blocks > 0) result.sync.ios = d.ios;
    GroupResult group;
    group.jobs = {result};
    RunResult run;
    run.groups = {group};
    return run;
  }
};

QuickOptions small_run(const std::string& dir) {
  QuickOptions o;
  o.directory = dir;
  o.budget = 2s;
  o.size = 8ull << 20;
  o.engine = EngineKind::kPsync;
  o.status_line = false;
  o.notice = [](const std::string&) {};
  return o;
}

class QuickDriverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    clear_stop_request();
    if (dir_.path().empty()) GTEST_SKIP() << "cannot create a temporary directory";
  }
  QuickReport run(QuickOptions o) {
    o.clock = &clock_;
    o.run_test = [this](const std::vector<JobSpec>& jobs, const RunnerOptions& r) { return fixed_(jobs, r); };
    return run_quick(o, [this](const CapacityRequest& r) { return fake_(r); });
  }
  testing::TempDir dir_;
  testing::FakeClock clock_;
  FakeCapacity fake_{clock_};
  FakeFixedTests fixed_{clock_};
};

bool is_empty(const std::string& dir) { return std::filesystem::is_empty(dir); }

TEST_F(QuickDriverTest, MeasuresEveryRowInOrder) {
  const QuickReport r = run(small_run(dir_.path()));
  std::vector<std::string> keys;
  for (const QuickRow& row : r.rows) keys.push_back(row.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"seq_write", "seq_read", "randread_capacity", "randwrite_capacity",
                                            "randread_qd1", "randwrite_qd1", "fsync_write"}));
  for (const QuickRow& row : r.rows) EXPECT_GT(row.iops, 0) << row.key;
}

TEST_F(QuickDriverTest, AsksTheCapacitySearchFor4KRandomReadThenWriteUnderTheLimit) {
  QuickOptions o = small_run(dir_.path());
  o.slo = 5ms;
  run(o);
  ASSERT_EQ(fake_.requests.size(), 2u);
  const CapacityRequest& read = fake_.requests[0];
  ASSERT_EQ(read.streams.size(), 1u);
  EXPECT_EQ(read.streams[0].workload.rw, RwMode::kRandRead);
  EXPECT_EQ(read.streams[0].workload.bs[index_of(Direction::kRead)], 4096u);
  EXPECT_EQ(read.slo, 5ms);
  EXPECT_EQ(read.slo_stat, SloStat::kMean);
  EXPECT_EQ(fake_.requests[1].streams[0].workload.rw, RwMode::kRandWrite);
}

TEST_F(QuickDriverTest, PsyncScalesCapacityByJobs) {
  run(small_run(dir_.path()));
  ASSERT_FALSE(fake_.requests.empty());
  EXPECT_EQ(fake_.requests[0].scale, ConcurrencyScale::kNumjobs);
}

TEST_F(QuickDriverTest, CapacityGetsItsShareOfTheBudget) {
  run(small_run(dir_.path()));
  ASSERT_FALSE(fake_.requests.empty());
  // 20% of what the layout left: at most 20/85 of 2 s, and not nothing.
  EXPECT_LE(fake_.requests[0].budget, std::chrono::milliseconds(2000) * 20 / 85 + 1ms);
  EXPECT_GT(fake_.requests[0].budget, 50ms);
}

TEST_F(QuickDriverTest, CapacityRowTakesTheAnswer) {
  const QuickReport r = run(small_run(dir_.path()));
  ASSERT_GE(r.rows.size(), 3u);
  EXPECT_EQ(r.rows[2].iodepth, 8u);
  EXPECT_DOUBLE_EQ(r.rows[2].iops, 6000);
  EXPECT_TRUE(r.rows[2].within_slo);
  EXPECT_EQ(r.rows[2].capacity["curve"].size(), 2u);
}

TEST_F(QuickDriverTest, NoAnswerShowsTheFirstPointOutsideTheLimit) {
  fake_.within_limit = false;
  const QuickReport r = run(small_run(dir_.path()));
  ASSERT_GE(r.rows.size(), 3u);
  EXPECT_FALSE(r.rows[2].within_slo);
  EXPECT_DOUBLE_EQ(r.rows[2].iops, 1000);
}

TEST_F(QuickDriverTest, RespectsTheBudgetWithinTenPercent) {
  const QuickReport r = run(small_run(dir_.path()));
  // Every step takes its whole slot on the fake clock: the run fills the 2 s budget but the reserve and
  // stays within 10% of it either way.
  EXPECT_LE(r.elapsed_seconds, 2.2);
  EXPECT_GE(r.elapsed_seconds, 1.8);
}

TEST_F(QuickDriverTest, EachFixedTestRunsForItsSlotAfterARamp) {
  QuickOptions o = small_run(dir_.path());
  o.budget = 60s;  // on the fake clock: slots above timing_for_slot's 200 ms floor, in no time
  const QuickReport r = run(o);
  EXPECT_LE(r.elapsed_seconds, 60.0);
  EXPECT_GE(r.elapsed_seconds, 54.0);
  ASSERT_EQ(fixed_.jobs.size(), 5u);
  for (const JobSpec& job : fixed_.jobs) {
    EXPECT_TRUE(job.time.time_based) << job.name;
    EXPECT_GE(job.time.runtime, 200ms) << job.name;  // timing_for_slot's floor
    EXPECT_GT(job.time.ramp_time, 0ms) << job.name;
    EXPECT_LT(job.time.ramp_time, job.time.runtime) << job.name;
  }
  // The sequential tests' slots (10 of the 85 shares each) are twice the depth-1 tests' (5 each).
  EXPECT_GT(fixed_.jobs[0].time.runtime, fixed_.jobs[2].time.runtime);
}

TEST_F(QuickDriverTest, RemovesWhatItCreated) {
  run(small_run(dir_.path()));
  EXPECT_TRUE(is_empty(dir_.path()));
}

TEST_F(QuickDriverTest, KeepKeepsTheFile) {
  QuickOptions o = small_run(dir_.path());
  o.keep = true;
  const QuickReport r = run(o);
  EXPECT_TRUE(std::filesystem::exists(r.file));
  EXPECT_EQ(std::filesystem::file_size(r.file), 8ull << 20);
}

TEST_F(QuickDriverTest, RecordsEnvironmentJobsAndQuickSection) {
  const QuickReport r = run(small_run(dir_.path()));
  EXPECT_FALSE(r.run.environment.empty());
  EXPECT_EQ(r.run.groups.size(), 5u);  // the fixed tests; the fake search has no final run
  ASSERT_TRUE(r.run.extra.contains("quick"));
  EXPECT_EQ(r.run.extra["quick"]["tests"].size(), 7u);
  EXPECT_EQ(r.run.command, "quick");  // "sluice"."command" of its document
}

TEST_F(QuickDriverTest, AStopRequestSkipsTheRemainingTests) {
  request_stop();
  const QuickReport r = run(small_run(dir_.path()));
  clear_stop_request();
  EXPECT_TRUE(r.run.interrupted);
  EXPECT_TRUE(r.rows.empty());
  EXPECT_TRUE(is_empty(dir_.path()));
}

TEST_F(QuickDriverTest, MissingDirectoryIsAUserError) {
  QuickOptions o = small_run(dir_.path() + "/missing");
  EXPECT_THROW(run(o), UserError);
}

TEST_F(QuickDriverTest, TableOfARealRunHasTheEnvironmentLine) {
  const std::string t = render_quick_table(run(small_run(dir_.path())));
  EXPECT_THAT(t, HasSubstr("psync"));
  EXPECT_THAT(t, HasSubstr("RAM"));
}

}  // namespace
}  // namespace sluice
