// The runner end to end on the null engine and on files in a temporary directory.
#include "run/runner.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <future>
#include <thread>

#include "common/stop_signal.h"
#include "run/run_test_support.h"
#include "support/temp_dir.h"

namespace sluice {
namespace {

using namespace std::chrono_literals;

using testing::quiet;

JobSpec plain_null_job(RwMode rw, std::uint64_t size) {
  JobSpec job;
  job.name = "n";
  job.engine.ioengine = EngineKind::kNull;
  job.workload.rw = rw;
  job.target.size.bytes = size;
  return job;
}

const JobResult& only_job(const RunResult& r) { return r.groups.at(0).jobs.at(0); }

TEST(Runner, SizeBasedJobDoesExactlyOnePass) {
  const RunResult r = run_jobs({plain_null_job(RwMode::kRandRead, 1 << 20)}, quiet());
  const JobResult& job = only_job(r);
  EXPECT_EQ(job.dirs[0].ios, 256u);
  EXPECT_EQ(job.dirs[0].bytes, 1u << 20);
  EXPECT_EQ(job.dirs[1].ios, 0u);
  EXPECT_EQ(job.dirs[0].lat.count(), 256u);
}

TEST(Runner, LoopsRepeatThePass) {
  JobSpec job = plain_null_job(RwMode::kRead, 1 << 20);
  job.time.loops = 3;
  EXPECT_EQ(only_job(run_jobs({job}, quiet())).dirs[0].ios, 768u);
}

TEST(Runner, NumberIosCapsTheJob) {
  JobSpec job = plain_null_job(RwMode::kRandRead, 1 << 30);
  job.time.number_ios = 1000;
  EXPECT_EQ(only_job(run_jobs({job}, quiet())).dirs[0].ios, 1000u);
}

TEST(Runner, MixedJobSplitsByRwmixread) {
  JobSpec job = plain_null_job(RwMode::kRandRW, 64 << 20);
  job.workload.rwmixread = 75;
  const RunResult run = run_jobs({job}, quiet());
  const JobResult& r = only_job(run);
  const double reads = static_cast<double>(r.dirs[0].ios);
  const double total = reads + static_cast<double>(r.dirs[1].ios);
  EXPECT_EQ(total, 16384.0);
  EXPECT_NEAR(reads / total, 0.75, 0.02);
}

TEST(Runner, GroupSumsAddJobsSideBySide) {
  JobSpec a = plain_null_job(RwMode::kRead, 1 << 20);
  a.control.numjobs = 2;
  a.report.group_reporting = true;
  JobSpec b = plain_null_job(RwMode::kWrite, 2 << 20);
  b.name = "b";
  const RunResult r = run_jobs({a, b}, quiet());
  ASSERT_EQ(r.groups.size(), 1u);
  ASSERT_EQ(r.groups[0].jobs.size(), 3u);
  const JobResult sum = r.groups[0].aggregate();
  EXPECT_EQ(sum.dirs[0].ios, 512u);
  EXPECT_EQ(sum.dirs[1].ios, 512u);
  EXPECT_EQ(sum.dirs[0].lat.count(), 512u);
}

TEST(Runner, StonewallRunsGroupsInOrder) {
  JobSpec a = plain_null_job(RwMode::kRead, 1 << 20);
  JobSpec b = plain_null_job(RwMode::kRead, 1 << 20);
  b.control.stonewall = true;
  const RunResult r = run_jobs({a, b}, quiet());
  ASSERT_EQ(r.groups.size(), 2u);
  EXPECT_LE(r.groups[0].jobs[0].end_ns, r.groups[1].jobs[0].start_ns);
}

TEST(Runner, StopRequestEndsTheRunAndMarksItInterrupted) {
  JobSpec job = plain_null_job(RwMode::kRandRead, 1 << 20);
  job.time.time_based = true;
  job.time.runtime = 60s;
  // The stop comes once the worker is released (before_measure), not after a guessed delay that a slow
  // start could outlast; 50 ms later, so the worker has done ios even on a busy machine.
  std::promise<void> released;
  RunnerOptions options = quiet();
  options.before_measure = [&released] { released.set_value(); };
  std::thread stopper([future = released.get_future()] {
    future.wait_for(30s);  // bounded: a run that fails before its release must not hang the test
    std::this_thread::sleep_for(50ms);
    request_stop();
  });
  const auto start = std::chrono::steady_clock::now();
  const RunResult r = run_jobs({job}, options);
  stopper.join();
  clear_stop_request();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
  EXPECT_TRUE(r.interrupted);
  EXPECT_TRUE(only_job(r).interrupted);
  EXPECT_GT(only_job(r).dirs[0].ios, 0u);
}

TEST(Runner, FsyncEveryNWritesIsCounted) {
  testing::TempDir dir;
  JobSpec job;
  job.name = "w";
  job.target.filenames = {dir.file("f")};
  job.target.size.bytes = 1 << 20;
  job.workload.rw = RwMode::kWrite;
  job.durability.fsync_blocks = 4;
  const RunResult run = run_jobs({job}, quiet());
  const JobResult& r = only_job(run);
  EXPECT_EQ(r.dirs[1].ios, 256u);
  EXPECT_EQ(r.sync.ios, 64u);
}

TEST(Runner, PsyncReadsTheLaidOutFile) {
  testing::TempDir dir;
  JobSpec job;
  job.name = "r";
  job.target.filenames = {dir.file("f")};
  job.target.size.bytes = 1 << 20;  // 256 direct reads: as telling as 1,024 were, a quarter of the disk time
  job.workload.rw = RwMode::kRandRead;
  job.target.direct = true;
  const RunResult run = run_jobs({job}, quiet());
  const JobResult& r = only_job(run);
  EXPECT_EQ(r.error, 0) << r.error_message;
  EXPECT_EQ(r.dirs[0].ios, 256u);
  EXPECT_EQ(r.dirs[0].short_ios, 0u);
  struct stat st {};
  ASSERT_EQ(stat(dir.file("f").c_str(), &st), 0);
  EXPECT_EQ(static_cast<std::uint64_t>(st.st_size), 1u << 20);
  EXPECT_GE(static_cast<std::uint64_t>(st.st_blocks) * 512, 1u << 20);  // written, not sparse
}

TEST(Runner, IoUringKeepsTheQueueFull) {
  testing::TempDir dir;
  JobSpec job;
  job.name = "q";
  job.target.filenames = {dir.file("f")};
  job.target.size.bytes = 8 << 20;
  job.workload.rw = RwMode::kRandRead;
  job.engine.ioengine = EngineKind::kIoUring;
  job.target.direct = true;  // buffered reads from the page cache complete inside submit and never queue
  job.queue.iodepth = 16;
  RunResult r;
  try {
    r = run_jobs({job}, quiet());
  } catch (const std::exception& e) {
    GTEST_SKIP() << "io_uring unavailable: " << e.what();
  }
  const JobResult& j = only_job(r);
  EXPECT_EQ(j.dirs[0].ios, 2048u);
  EXPECT_EQ(j.dirs[0].slat.count(), 2048u);
  // Bucket 4 holds depths 16..31. A reap takes at most one submit group (4), so every refill brings the
  // queue back to 16: only the first fill (4, 8, 12 in flight) and the odd short refill are counted lower.
  // Before reaps were capped, most refills passed through 4, 8 and 12 (the bucket held ~60%).
  EXPECT_GE(j.depth.level[4], 2048u * 98 / 100);
}

TEST(Runner, MissingDirectoryIsAClearErrorBeforeAnyIo) {
  JobSpec job;
  job.name = "x";
  job.target.directory = "/nonexistent/sluice";
  job.target.size.bytes = 1 << 20;
  EXPECT_THROW(run_jobs({job}, quiet()), UserError);
}

// docs/ARCHITECTURE.md, targets/'s rule: a later group's target that cannot be resolved stops the run before
// the first group's file is laid out (or created).
TEST(Runner, NothingIsWrittenBeforeEveryTargetIsChecked) {
  testing::TempDir dir;
  JobSpec first;
  first.name = "w";
  first.target.filenames = {dir.file("first")};
  first.target.size.bytes = 1 << 20;
  first.workload.rw = RwMode::kWrite;
  first.engine.ioengine = EngineKind::kPsync;
  JobSpec later = first;
  later.name = "later";
  later.control.stonewall = true;
  later.target.filenames.clear();
  later.target.directory = dir.file("missing/directory");
  EXPECT_THROW(run_jobs({first, later}, quiet()), UserError);
  struct stat st {};
  EXPECT_NE(stat(dir.file("first").c_str(), &st), 0) << "the first group's file was created";
}

}  // namespace
}  // namespace sluice
