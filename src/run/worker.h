#pragma once
// Worker: runs one job clone on its own thread, from the start event to its end (size, runtime, number_ios,
// error, max_latency or a stop request), and fills its JobResult. Owns its engine, io pool, buffers, pattern
// and statistics: nothing on the per-io path is shared or locked.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "run/job_control.h"
#include "run/live_counters.h"
#include "run/plan.h"
#include "stats/result.h"
#include "targets/target_file.h"

namespace sluice {

class ZonedFiles;  // run/zoned_file.h

// All workers of a group wait on one start event, so they begin together (diskspd's rule).
class StartGate {
 public:
  void open() noexcept;
  void wait() const noexcept;

 private:
  std::atomic<bool> open_{false};
};

struct WorkerConfig {
  std::uint64_t series_interval_ns = 1'000'000'000ull;
  std::uint64_t snapshot_interval_ns = 0;  // --status-interval: publish the result so far this often (0 = never)
};

class Worker {
 public:
  // targets: opened files (fd set) of this clone; the worker does not close them.
  Worker(JobInstance instance, std::vector<TargetFile> targets, WorkerConfig config);
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // Creates the engine and buffers (may throw UserError); call before starting the thread.
  void prepare();
  // The thread body: waits for the gate, runs, fills the result. Never throws: failures end up in the
  // result's error fields.
  void run(const StartGate& gate) noexcept;

  const LiveCounters& live() const noexcept { return live_; }
  const JobInstance& instance() const noexcept { return instance_; }
  std::vector<TargetFile>& targets() noexcept { return targets_; }
  std::uint64_t planned_bytes() const noexcept;
  JobResult take_result() { return std::move(result_); }
  // The result of a job whose thread is stuck in an I/O that does not return (a stalled device): its
  // identity and `message` as the error (ETIMEDOUT), the ios and bytes its live counters saw over `elapsed_ns`
  // (its runtime; latencies are lost with the thread), built without touching what the stuck thread owns.
  JobResult stalled_result(const std::string& message, std::uint64_t elapsed_ns) const;
  // The result of a job that could not start (its files could not be set up): its identity, `error` and
  // `message`, no I/O. Needs no prepare().
  JobResult failed_result(int error, const std::string& message) const;
  // Ends the job as its time limit would (thread-safe; used for role=background). Call after prepare().
  void request_stop() noexcept { stop_.store(true, std::memory_order_relaxed); }
  // The group's job control (wait_for, exitall, flow), shared with the group's other workers and outliving
  // run(); null when the group uses none of them. Call before prepare().
  void set_group_control(GroupControl* control) noexcept { control_ = control; }
  // zonemode=zbd: the run's zoned files (run/zoned_file.h), outliving run(). Call before prepare().
  void set_zoned_files(ZonedFiles* files) noexcept { zoned_files_ = files; }

 private:
  struct Loop;
  JobInstance instance_;
  std::vector<TargetFile> targets_;
  WorkerConfig config_;
  LiveCounters live_;
  std::atomic<bool> stop_{false};
  GroupControl* control_ = nullptr;
  ZonedFiles* zoned_files_ = nullptr;
  JobResult result_;
  std::unique_ptr<Loop> loop_;
};

}  // namespace sluice
