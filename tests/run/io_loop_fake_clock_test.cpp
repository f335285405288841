// IoLoop on a fake engine and a fake clock: every number below follows from the fake service time, so the
// tests are exact, take microseconds, and never sleep.
#include <gtest/gtest.h>

#include <cerrno>

#include "engine/engines.h"
#include "engine/synchronous_engine.h"
#include "job/option_table.h"
#include "run/io_loop.h"
#include "run/plan.h"
#include "run/verify_state.h"
#include "support/fake_engine.h"
#include "support/temp_dir.h"

namespace sluice {
namespace {

using namespace std::chrono_literals;
using testing::FakeClock;
using testing::FakeEngine;

constexpr std::uint64_t kStart = 1'000'000'000;  // the fake clock's first reading
constexpr int kDepth32Bucket = 5;                // IodepthDistribution::level: 32..63

JobSpec time_based_job(std::chrono::nanoseconds runtime) {
  JobSpec job;
  job.name = "fake";
  job.workload.rw = RwMode::kRandRead;
  job.target.size.bytes = 64 << 20;
  job.time.time_based = true;
  job.time.runtime = runtime;
  return job;
}

struct Outcome {
  JobResult result;
  std::size_t max_in_flight = 0;
  std::size_t submit_calls = 0;
  std::size_t overlapping_submits = 0;
};

// `fake`, when given, is the engine passed in: its counters are read while the loop (which owns it) lives.
Outcome run_with(const JobSpec& job, std::unique_ptr<Engine> engine, FakeClock& clock,
                 std::uint64_t series_interval_ns = 1'000'000'000, const FakeEngine* fake = nullptr) {
  const JobInstance instance{.spec = job, .jobnum = 0, .groupid = 0, .lognum = 0, .seed = 1};
  std::vector<TargetFile> targets(1);
  targets[0].path = "(fake)";
  targets[0].size = job.target.size.bytes;
  targets[0].region_length = job.target.size.bytes;
  IoLoop loop(io_loop_inputs(instance, targets), targets, series_interval_ns, std::move(engine), LoopClock(clock));
  loop.prepare();
  Outcome out;
  LiveCounters live;
  loop.run(out.result, live);
  if (fake != nullptr) {
    out.max_in_flight = fake->max_in_flight();
    out.submit_calls = fake->submit_calls();
    out.overlapping_submits = fake->overlapping_submits();
  }
  return out;
}

Outcome run_on_fake(const JobSpec& job, bool async, std::uint64_t service_ns,
                    std::uint64_t series_interval_ns = 1'000'000'000) {
  FakeClock clock(kStart);
  auto engine = std::make_unique<FakeEngine>(clock, async, service_ns);
  const FakeEngine* fake = engine.get();
  return run_with(job, std::move(engine), clock, series_interval_ns, fake);
}

std::uint64_t level_total(const IodepthDistribution& depth) {
  std::uint64_t sum = 0;
  for (std::uint64_t n : depth.level) sum += n;
  return sum;
}

TEST(IoLoopFakeClock, RuntimeEndsAtExactlyTheFakeTime) {
  const Outcome out = run_on_fake(time_based_job(1ms), false, 10'000);
  EXPECT_EQ(out.result.start_ns, kStart);
  EXPECT_EQ(out.result.runtime_ns, 1'000'000u);
  EXPECT_EQ(out.result.dirs[0].ios, 100u);  // one per 10 us, the last completing exactly at the end
}

TEST(IoLoopFakeClock, RampTimeIsExcluded) {
  JobSpec job = time_based_job(1ms);
  job.time.ramp_time = 500us;
  const Outcome out = run_on_fake(job, false, 10'000);
  EXPECT_EQ(out.result.start_ns, kStart + 500'000);
  EXPECT_EQ(out.result.runtime_ns, 1'000'000u);
  EXPECT_EQ(out.result.dirs[0].ios, 100u);  // the 50 ios of the ramp are not counted
}

// ramp_size (fio 3.42) is looked at once a second from the job's start: 1 ms per 4 KiB io does 1 MiB in
// 256 ms, but the ramp ends at the check at 1 s, and the runtime starts there.
TEST(IoLoopFakeClock, RampSizeEndsAtTheFirstWholeSecondThatFindsItDone) {
  JobSpec job = time_based_job(10ms);
  job.time.ramp_size = 1 << 20;
  const Outcome out = run_on_fake(job, false, 1'000'000);
  EXPECT_EQ(out.result.start_ns, kStart + 1'000'000'000);
  EXPECT_EQ(out.result.runtime_ns, 10'000'000u);
  EXPECT_EQ(out.result.dirs[0].ios, 10u);  // the 1000 ios of the ramp are not counted
}

TEST(IoLoopFakeClock, RampSizeNotDoneAtTheFirstCheckWaitsForTheNext) {
  JobSpec job = time_based_job(10ms);
  job.time.ramp_size = 6 << 20;  // 1536 ios: 1000 by the check at 1 s, 2000 by the one at 2 s
  const Outcome out = run_on_fake(job, false, 1'000'000);
  EXPECT_EQ(out.result.start_ns, kStart + 2'000'000'000);
  EXPECT_EQ(out.result.dirs[0].ios, 10u);
}

// A size-based job that ends during its ramp measured nothing, as with ramp_time.
TEST(IoLoopFakeClock, RampSizeNeverDoneMeasuresNothing) {
  JobSpec job = time_based_job(0ns);
  job.time.time_based = false;
  job.target.size.bytes = 1 << 20;
  job.time.ramp_size = 512 << 10;
  const Outcome out = run_on_fake(job, false, 1'000'000);  // 256 ios end the job at 256 ms, before a check
  EXPECT_EQ(out.result.dirs[0].ios, 0u);
}

TEST(IoLoopFakeClock, SynchronousLatencyIsTheServiceTime) {
  const Outcome out = run_on_fake(time_based_job(1ms), false, 10'000);
  const DirectionStats& read = out.result.dirs[0];
  EXPECT_EQ(read.clat.moments.count(), 100u);
  EXPECT_EQ(read.clat.moments.min(), 10'000.0);
  EXPECT_EQ(read.clat.moments.max(), 10'000.0);
  EXPECT_EQ(read.lat.moments.mean(), 10'000.0);  // lat = clat for a synchronous engine
  EXPECT_EQ(read.slat.moments.count(), 0u);      // no slat, as fio's sync engines
}

TEST(IoLoopFakeClock, AsynchronousLatencyIsTheServiceTime) {
  JobSpec job = time_based_job(1ms);
  job.queue.iodepth = 4;
  const Outcome out = run_on_fake(job, true, 100'000);
  const DirectionStats& read = out.result.dirs[0];
  ASSERT_GT(read.ios, 0u);
  EXPECT_EQ(read.clat.moments.min(), 100'000.0);
  EXPECT_EQ(read.clat.moments.max(), 100'000.0);
  EXPECT_EQ(read.lat.moments.max(), 100'000.0);
  EXPECT_EQ(read.slat.moments.max(), 0.0);  // the fake submit takes no time
  EXPECT_EQ(read.slat.moments.count(), read.ios);
}

TEST(IoLoopFakeClock, AsyncEngineKeepsIodepthInFlight) {
  JobSpec job = time_based_job(10ms);
  job.queue.iodepth = 32;
  job.time.ramp_time = 1ms;  // the first fill (4, 8, ... 32 in flight) happens during the ramp
  const Outcome out = run_on_fake(job, true, 100'000);
  EXPECT_EQ(out.max_in_flight, 32u);
  const IodepthDistribution& depth = out.result.depth;
  ASSERT_GT(level_total(depth), 3000u);
  // fio's "IO depths: 32=100.0%" when the engine always accepts: every submission finds 32 in flight.
  EXPECT_EQ(depth.level[kDepth32Bucket], level_total(depth));
  // 32 ios per 100 us of service for 10 ms, plus the ios of the ramp's last turn completed after it.
  EXPECT_GE(out.result.dirs[0].ios, 3200u);
  EXPECT_LE(out.result.dirs[0].ios, 3232u);
}

// norandommap over 16 blocks at iodepth 16: random writes of one block pile up in flight unless
// serialize_overlap holds each back until the earlier one completed.
TEST(IoLoopFakeClock, SerializeOverlapKeepsOverlappingIosApart) {
  JobSpec job = time_based_job(5ms);
  job.workload.rw = RwMode::kRandWrite;
  job.target.size.bytes = 64 << 10;
  job.workload.norandommap = true;
  job.queue.iodepth = 16;
  const Outcome loose = run_on_fake(job, true, 100'000);
  EXPECT_GT(loose.overlapping_submits, 100u);
  job.queue.serialize_overlap = true;
  const Outcome serialized = run_on_fake(job, true, 100'000);
  EXPECT_EQ(serialized.overlapping_submits, 0u);
  EXPECT_GT(serialized.result.dirs[1].ios, 100u);  // it still writes, at a lower depth
  EXPECT_LT(serialized.max_in_flight, 16u);
}

// latency_target on an engine whose ios all take 100 us: a 1 ms target holds at every depth, so the search
// doubles to iodepth, finds it again, runs one more window and ends, long before the runtime; only the final
// window is reported.
TEST(IoLoopFakeClock, LatencyTargetRampsToIodepthAndEndsAfterTheFinalWindow) {
  JobSpec job = time_based_job(1s);
  job.queue.iodepth = 8;
  job.latency.latency_target = 1ms;
  job.latency.latency_window = 10ms;
  const Outcome out = run_on_fake(job, true, 100'000);
  EXPECT_EQ(out.result.error, 0);
  EXPECT_EQ(out.max_in_flight, 8u);
  ASSERT_TRUE(out.result.latency_target.is_object());
  EXPECT_EQ(out.result.latency_target["latency_depth"].get<int>(), 8);
  // Windows at 1, 2, 4, 8, 8 again, then the final one: about 60 ms, of which the last 10 are measured.
  EXPECT_GE(out.result.runtime_ns, 10'000'000u);
  EXPECT_LT(out.result.runtime_ns, 11'000'000u);
  EXPECT_NEAR(static_cast<double>(out.result.dirs[0].ios), 800.0, 16.0);  // 8 in flight per 100 us for 10 ms
}

TEST(IoLoopFakeClock, LatencyTargetBelowTheServiceTimeFailsAtDepthOne) {
  JobSpec job = time_based_job(1s);
  job.queue.iodepth = 8;
  job.latency.latency_target = 50us;
  job.latency.latency_window = 10ms;
  const Outcome out = run_on_fake(job, true, 100'000);
  EXPECT_EQ(out.result.error, ETIMEDOUT);
  EXPECT_NE(out.result.error_message.find("latency of 100000 nsec exceeds specified max (50000 nsec)"),
            std::string::npos)
      << out.result.error_message;
  EXPECT_EQ(out.max_in_flight, 1u);
}

TEST(IoLoopFakeClock, GivenCompleteMaxIsHonoured) {
  JobSpec job = time_based_job(10ms);
  job.queue.iodepth = 32;
  job.time.ramp_time = 1ms;
  apply_option(job, "iodepth_batch_complete_max", "0", SourcePos{});  // 0: everything that completed, as iodepth
  const Outcome out = run_on_fake(job, true, 100'000);
  // All 32 complete at once and are refilled in groups of 4: submissions see 4, 8, ... 32 in flight.
  EXPECT_LT(out.result.depth.level[kDepth32Bucket], level_total(out.result.depth));
}

// Regression (it_verify_state's AVerifyOnlyRunChecksWhatTheInterruptedRunWrote, on a loaded machine): writes
// in flight at a time-based end that the loop reaped after the end were complete in the verify state but not
// counted, so a verify_only run with the state read back more blocks than the writing run reported. Rounds of
// 8 writes of 300 us: the fourth, issued at 900 us, completes at 1.2 ms, after the end; as fio, they count.
TEST(IoLoopFakeClock, WritesInFlightAtATimeBasedEndCountAndTheVerifyStateSaysSo) {
  testing::TempDir aux;
  JobSpec job = time_based_job(1ms);
  job.workload.rw = RwMode::kRandWrite;
  job.queue.iodepth = 8;
  job.verification.verify = VerifyKind::kCrc32c;
  job.verification.aux_path = aux.path();
  const Outcome out = run_on_fake(job, true, 300'000);
  const DirectionStats& write = out.result.dirs[index_of(Direction::kWrite)];
  // The window runs until the last of them completed, 1.2 ms, as fio's runtime includes the drain.
  EXPECT_EQ(out.result.runtime_ns, 1'200'000u);
  EXPECT_EQ(write.ios, 32u);
  EXPECT_EQ(write.clat.moments.count(), 32u);
  const VerifyState state = load_verify_state(verify_state_path(aux.path(), job.name, 0), job.name);
  EXPECT_EQ(state.writes_issued - state.incomplete.size(), write.ios) << "the state's completed writes";
}

TEST(IoLoopFakeClock, RateIopsSpacesTheArrivals) {
  JobSpec job = time_based_job(10ms);
  job.pacing.rate_iops = {1000, 1000, 1000};
  const Outcome out = run_on_fake(job, false, 10'000);
  EXPECT_EQ(out.result.runtime_ns, 10'000'000u);
  EXPECT_EQ(out.result.dirs[0].ios, 10u);                      // one per ms
  EXPECT_EQ(out.result.dirs[0].clat.moments.max(), 10'000.0);  // waiting for the rate is not latency
}

// Open loop above capacity (the logic of it_open_loop_test's AboveCapacityLatencyGrowsWithTheRun, exactly):
// arrivals every 1/3 ms, one io per ms served, so io k waits k * 2/3 ms longer than io 0 and the run completes
// what the engine sustains, not the rate. Below capacity nothing queues.
TEST(IoLoopFakeClock, OpenLoopAboveCapacityLatencyGrowsWithTheRun) {
  JobSpec job = time_based_job(1s);
  job.pacing.open_loop = true;
  job.pacing.rate_iops = {3000, 3000, 3000};
  const Outcome out = run_on_fake(job, false, 1'000'000);
  const DirectionStats& read = out.result.dirs[0];
  EXPECT_NEAR(static_cast<double>(read.ios), 1000.0, 2.0);  // the engine's capacity, a third of the rate
  EXPECT_NEAR(read.lat.moments.min(), 1e6, 1e3);            // the first io waits for nothing
  EXPECT_GT(read.lat.moments.max(), 600e6);                 // the last waited for ~666 earlier ones
  EXPECT_EQ(read.clat.moments.max(), 1e6);                  // the queue is not service time
  EXPECT_GT(read.queue_wait.moments.mean(), 100 * read.clat.moments.mean());
}

TEST(IoLoopFakeClock, OpenLoopBelowCapacityQueuesNothing) {
  JobSpec job = time_based_job(1s);
  job.pacing.open_loop = true;
  job.pacing.rate_iops = {500, 500, 500};
  const Outcome out = run_on_fake(job, false, 1'000'000);
  const DirectionStats& read = out.result.dirs[0];
  EXPECT_NEAR(static_cast<double>(read.ios), 500.0, 1.0);
  EXPECT_EQ(read.lat.moments.max(), 1e6);
  EXPECT_EQ(read.queue_wait.moments.max(), 0.0);
}

TEST(IoLoopFakeClock, ThinkTimeFollowsEachIo) {
  JobSpec job = time_based_job(1ms);
  job.pacing.thinktime = 90us;
  const Outcome out = run_on_fake(job, false, 10'000);
  EXPECT_EQ(out.result.dirs[0].ios, 10u);  // 10 us of service + 90 us of thinking per io
  EXPECT_EQ(out.result.dirs[0].clat.moments.max(), 10'000.0);
}

TEST(IoLoopFakeClock, TimeSeriesHasOneSamplePerInterval) {
  const Outcome out = run_on_fake(time_based_job(1ms), false, 10'000, 100'000);
  EXPECT_EQ(out.result.series.size(), 10u);
  for (const auto& sample : out.result.series.samples()) EXPECT_EQ(sample[0].ops, 10u);
}

// fio's iopsavgtime / bwavgtime: one sample per window, none for the partial window at the end; a 1 ms job
// has none at fio's default 500 ms.
TEST(IoLoopFakeClock, RateSamplesFollowTheAveragingWindows) {
  JobSpec job = time_based_job(10ms);
  job.report.iops_avg_msec = 1;
  job.report.bw_avg_msec = 2;
  const Outcome out = run_on_fake(job, false, 10'000);
  EXPECT_EQ(out.result.dirs[0].iops_samples.count(), 10u);  // at 1, 2, ... 10 ms: the last window ends with the job
  EXPECT_DOUBLE_EQ(out.result.dirs[0].iops_samples.mean(), 100'000.0);  // 100 ios per ms
  EXPECT_EQ(out.result.dirs[0].bw_samples.count(), 5u);
  EXPECT_DOUBLE_EQ(out.result.dirs[0].bw_samples.mean(), 100'000.0 * 4096);
  EXPECT_EQ(out.result.dirs[1].bw_samples.count(), 0u);  // writes: none issued, no sample
  EXPECT_EQ(run_on_fake(time_based_job(1ms), false, 10'000).result.dirs[0].iops_samples.count(), 0u);
}

TEST(IoLoopFakeClock, SizeBasedJobEndsWithThePass) {
  JobSpec job = time_based_job(0ns);
  job.time.time_based = false;
  job.target.size.bytes = 1 << 20;
  const Outcome out = run_on_fake(job, false, 10'000);
  EXPECT_EQ(out.result.dirs[0].ios, 256u);
  EXPECT_EQ(out.result.runtime_ns, 256u * 10'000u);
}

// Job control (run/job_hooks.h) reads the loop's clock too: its checks run on fake time.
TEST(IoLoopFakeClock, RateIopsMinFailsASlowJob) {
  JobSpec job = time_based_job(3s);
  job.name = "r";
  job.workload.rw = RwMode::kRead;
  job.pacing.thinktime = 10ms;  // about 100 IOPS
  job.pacing.rate_iops_min = {1000, 1000, 1000};
  const Outcome out = run_on_fake(job, false, 10'000);
  EXPECT_EQ(out.result.error, EIO);
  EXPECT_NE(out.result.error_message.find("r: rate_iops_min=1000 not met, got "), std::string::npos)
      << out.result.error_message;
  EXPECT_LT(out.result.runtime_ns, 2'500'000'000u);
}

TEST(IoLoopFakeClock, SteadyStateEndsTheJobEarly) {
  JobSpec job = time_based_job(20s);
  job.steady_state.ss_criterion = SteadyStateCriterion::kIops;
  job.steady_state.ss_limit = 90;  // within 90% of the mean: the fake engine's IOPS never vary
  job.steady_state.ss_limit_is_percent = true;
  job.steady_state.ss_duration = 1s;
  job.steady_state.ss_interval = 250ms;
  const Outcome out = run_on_fake(job, false, 10'000);
  EXPECT_LT(out.result.runtime_ns, 5'000'000'000u);
  ASSERT_TRUE(out.result.steadystate.is_object());
  EXPECT_EQ(out.result.steadystate.at("attained"), 1);
  EXPECT_EQ(out.result.steadystate.at("ss"), "iops:90.000000%");
  EXPECT_EQ(out.result.steadystate.at("data").at("iops").size(), 4u);
}

// ss=lat (fio 3.42): each interval's sample is its ios' mean completion latency, here the fake 10 us.
TEST(IoLoopFakeClock, SteadyStateOnLatencyEndsTheJobEarly) {
  JobSpec job = time_based_job(20s);
  job.steady_state.ss_criterion = SteadyStateCriterion::kLat;
  job.steady_state.ss_limit = 1;  // ns
  job.steady_state.ss_duration = 1s;
  job.steady_state.ss_interval = 250ms;
  const Outcome out = run_on_fake(job, false, 10'000);
  EXPECT_LT(out.result.runtime_ns, 5'000'000'000u);
  ASSERT_TRUE(out.result.steadystate.is_object());
  EXPECT_EQ(out.result.steadystate.at("attained"), 1);
  EXPECT_EQ(out.result.steadystate.at("ss"), "lat:1.000000");
  EXPECT_EQ(out.result.steadystate.at("data").at("lat_ns"), nlohmann::json({10000, 10000, 10000, 10000}));
  EXPECT_EQ(out.result.steadystate.at("data").at("lat_mean"), 10000u);
}

TEST(IoLoopFakeClock, RateCycleSetsTheWindowTheMinimumIsCheckedOver) {
  JobSpec job = time_based_job(3s);
  job.name = "r";
  job.workload.rw = RwMode::kRead;
  job.pacing.thinktime = 10ms;  // about 100 IOPS
  job.pacing.rate_iops_min = {1000, 1000, 1000};
  job.pacing.rate_cycle = 200ms;
  const Outcome out = run_on_fake(job, false, 10'000);
  EXPECT_EQ(out.result.error, EIO);
  // The first window closes at 200 ms (not fio's default 1000 ms) and the job fails at the check after it.
  EXPECT_LT(out.result.runtime_ns, 500'000'000u);
  EXPECT_GE(out.result.runtime_ns, 200'000'000u);
}

// cpuio's pacing (run/plan.cpp): think think_per_busy times each io's own time; a think that would outlast
// the runtime ends with it.
TEST(IoLoopFakeClock, ThinkInProportionToTheIoAndNeverPastTheEnd) {
  JobSpec job = time_based_job(1ms);
  job.pacing.think_per_busy = 3.0;  // cpuload=25
  const Outcome out = run_on_fake(job, false, 10'000);
  EXPECT_EQ(out.result.dirs[0].ios, 25u);  // 10 us of work + 30 us of thinking per io
  JobSpec slow = time_based_job(1ms);
  slow.pacing.thinktime = 1s;
  const Outcome cut = run_on_fake(slow, false, 10'000);
  EXPECT_EQ(cut.result.dirs[0].ios, 1u);
  EXPECT_EQ(cut.result.runtime_ns, 1'000'000u) << "the 1 s think was cut at the 1 ms runtime";
}

TEST(IoLoopFakeClock, RateMinIgnoresDirectionsTheJobDoesNotIssue) {
  JobSpec job = time_based_job(1200ms);
  job.workload.rw = RwMode::kRead;
  job.pacing.rate_min = {0, 1 << 30, 0};  // writes only; the job reads
  const Outcome out = run_on_fake(job, false, 10'000);
  EXPECT_EQ(out.result.error, 0) << out.result.error_message;
  EXPECT_EQ(out.result.runtime_ns, 1'200'000'000u);
}

TEST(IoLoopFakeClock, SteadyStateNotAttainedKeepsTheBlock) {
  JobSpec job = time_based_job(1500ms);
  job.steady_state.ss_criterion = SteadyStateCriterion::kBwSlope;
  job.steady_state.ss_limit = 0;
  job.steady_state.ss_duration = 5s;
  const Outcome out = run_on_fake(job, false, 10'000);
  EXPECT_EQ(out.result.steadystate.at("attained"), 0);
  EXPECT_EQ(out.result.runtime_ns, 1'500'000'000u);
}

TEST(IoLoopFakeClock, NullEngineTakesTheInlinePathAndAccountsEachIo) {
  std::unique_ptr<Engine> engine = make_null_engine();
  ASSERT_TRUE(NullPerform::is(*engine));  // run() dispatches to the per-type path, not through submit/reap
  JobSpec job = time_based_job(0ns);
  job.time.time_based = false;
  job.target.size.bytes = 1 << 20;
  FakeClock clock(kStart);
  const Outcome out = run_with(job, std::move(engine), clock);
  EXPECT_EQ(out.result.dirs[0].ios, 256u);
  EXPECT_EQ(out.result.dirs[0].clat.moments.max(), 0.0);  // the fake clock did not move: no io took time
  EXPECT_EQ(out.result.depth.level[0], 256u);             // depth 1 for every io, as fio's sync engines
  EXPECT_EQ(out.result.depth.total_submit_calls, 256u);
  EXPECT_EQ(out.result.depth.total_complete_calls, 256u);
}

TEST(IoLoopFakeClock, EachSynchronousEngineIsRecognisedByItsOwnPerformOnly) {
  const std::unique_ptr<Engine> null = make_null_engine();
  const std::unique_ptr<Engine> psync = make_psync_engine();
  const std::unique_ptr<Engine> sync = make_sync_engine();
  const std::unique_ptr<Engine> mmap = make_mmap_engine();
  EXPECT_TRUE(NullPerform::is(*null) && PsyncPerform::is(*psync) && SyncPerform::is(*sync) && MmapPerform::is(*mmap));
  EXPECT_FALSE(NullPerform::is(*psync) || PsyncPerform::is(*sync) || SyncPerform::is(*mmap) || MmapPerform::is(*null));
  FakeClock clock;
  const FakeEngine fake(clock, false, 1);
  EXPECT_FALSE(NullPerform::is(fake) || PsyncPerform::is(fake) || SyncPerform::is(fake) || MmapPerform::is(fake));
}

// fsync=1 with the runtime ending inside a write (each io and each fsync 10 us, runtime 1.005 ms: the 51st
// write runs from 1.000 to 1.010 ms): the fsync that write made due is still issued, as fio's loop does, so
// every write is followed by its sync.
TEST(IoLoopFakeClock, TheSyncAWriteMadeDueIsIssuedWhenTheRuntimeEndsDuringTheWrite) {
  JobSpec job = time_based_job(1005us);
  job.workload.rw = RwMode::kRandWrite;
  job.durability.fsync_blocks = 1;
  const Outcome out = run_on_fake(job, false, 10'000);
  EXPECT_EQ(out.result.dirs[1].ios, 51u);
  EXPECT_EQ(out.result.sync.ios, out.result.dirs[1].ios);
}
}  // namespace
}  // namespace sluice
