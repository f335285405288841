// verify_policy=fsynced (fio master) on IoLoop with the fake engine and clock: the threshold a completed sync
// leaves is the writes issued before its submission, in flight or not; a failed sync leaves none; the state
// file records it, and the job's own verify phase checks only the writes it covers.
#include <gtest/gtest.h>

#include <memory>
#include <utility>
#include <vector>

#include "job/job_spec.h"
#include "run/io_loop.h"
#include "run/plan.h"
#include "run/verify_state.h"
#include "support/fake_engine.h"
#include "support/temp_dir.h"

namespace sluice {
namespace {

using testing::FakeClock;
using testing::FakeEngine;

// The fake engine, with every sync after the first `good_syncs` failing with EIO.
class SyncFailingEngine final : public Engine {
 public:
  SyncFailingEngine(FakeClock& clock, std::size_t good_syncs) : inner_(clock, true, 100'000), good_(good_syncs) {}
  std::string_view name() const noexcept override { return inner_.name(); }
  EngineCaps caps() const noexcept override { return inner_.caps(); }
  void open(const EngineSetup& setup) override { inner_.open(setup); }
  void close() noexcept override { inner_.close(); }
  int submit(std::span<IoUnit* const> batch) override {
    const int accepted = inner_.submit(batch);
    for (int i = 0; i < accepted; ++i) {
      IoUnit& unit = *batch[static_cast<std::size_t>(i)];
      if (is_flush(unit.op) && syncs_++ >= good_) unit.result = -EIO;
    }
    return accepted;
  }
  int reap(unsigned min_events, std::span<IoUnit*> out) override { return inner_.reap(min_events, out); }

 private:
  FakeEngine inner_;
  std::size_t good_;
  std::size_t syncs_ = 0;
};

// 16 sequential 4 KiB writes at depth 4 with crc32c verify, fsync every `fsync_every` writes.
JobSpec fsynced_write_job(const std::string& aux, std::uint32_t fsync_every) {
  JobSpec job;
  job.name = "vp";
  job.workload.rw = RwMode::kWrite;
  job.target.size.bytes = 64 * 1024;
  job.queue.iodepth = 4;
  job.verification.verify = VerifyKind::kCrc32c;
  job.verification.verify_policy = VerifyPolicy::kFsynced;
  job.verification.do_verify = false;
  job.durability.fsync_blocks = fsync_every;
  job.verification.aux_path = aux;
  return job;
}

JobResult run_fake(const JobSpec& job, std::unique_ptr<Engine> engine, FakeClock& clock) {
  const JobInstance instance{.spec = job, .jobnum = 0, .groupid = 0, .lognum = 0, .seed = 1};
  std::vector<TargetFile> targets(1);
  targets[0].path = "(fake)";
  targets[0].size = job.target.size.bytes;
  targets[0].region_length = job.target.size.bytes;
  IoLoop loop(io_loop_inputs(instance, targets), targets, 1'000'000'000, std::move(engine), LoopClock(clock));
  loop.prepare();
  JobResult result;
  LiveCounters live;
  loop.run(result, live);
  return result;
}

VerifyState saved_state(const JobSpec& job) {
  return load_verify_state(verify_state_path(job.verification.aux_path, job.name, 0), job.name);
}

TEST(VerifyPolicyFakeClock, TheLastCompletedSyncCoversTheWritesIssuedBeforeIt) {
  testing::TempDir aux;
  const JobSpec job = fsynced_write_job(aux.path(), 5);  // syncs after writes 5, 10 and 15; none after 16
  FakeClock clock;
  const JobResult result = run_fake(job, std::make_unique<FakeEngine>(clock, true, 100'000), clock);
  EXPECT_EQ(result.error, 0) << result.error_message;
  EXPECT_EQ(result.sync.ios, 3u);
  const VerifyState state = saved_state(job);
  EXPECT_EQ(state.writes_issued, 16u);
  ASSERT_TRUE(state.fsynced_writes.has_value());
  EXPECT_EQ(*state.fsynced_writes, 15u);
}

TEST(VerifyPolicyFakeClock, NoSyncCoversNothing) {
  testing::TempDir aux;
  const JobSpec job = fsynced_write_job(aux.path(), 0);
  FakeClock clock;
  run_fake(job, std::make_unique<FakeEngine>(clock, true, 100'000), clock);
  const VerifyState state = saved_state(job);
  EXPECT_EQ(state.writes_issued, 16u);
  EXPECT_EQ(state.fsynced_writes, 0u);
}

TEST(VerifyPolicyFakeClock, AFailedSyncCoversNothingMore) {
  testing::TempDir aux;
  JobSpec job = fsynced_write_job(aux.path(), 5);
  job.errors.continue_on_error = kContinueOnAllErrors;  // the failed syncs are counted, the job goes on
  FakeClock clock;
  run_fake(job, std::make_unique<SyncFailingEngine>(clock, 1), clock);
  EXPECT_EQ(saved_state(job).fsynced_writes, 5u);
}

TEST(VerifyPolicyFakeClock, CompletedPolicySavesNoThreshold) {
  testing::TempDir aux;
  JobSpec job = fsynced_write_job(aux.path(), 5);
  job.verification.verify_policy = VerifyPolicy::kCompleted;
  FakeClock clock;
  run_fake(job, std::make_unique<FakeEngine>(clock, true, 100'000), clock);
  EXPECT_FALSE(saved_state(job).fsynced_writes.has_value());
}

}  // namespace
}  // namespace sluice
