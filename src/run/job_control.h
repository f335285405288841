#pragma once
// Job control across the jobs of a group, as fio: wait_for (a job starts when the named earlier job's
// clones have all finished), exitall (when a job ends, the group's other jobs stop) and flow / flow_id
// (jobs of a flow group complete ios in the ratio of their weights). Also the per-clone option expansion
// done at planning (filename_format, offset_increment).
//
// Threads: one GroupControl per running group, shared by its workers. wait_turn() blocks (not on the io
// path); finished() and stop_requested() are lock-free; FlowGroup::ahead() is one atomic add per io.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "job/job_spec.h"
#include "run/plan.h"
#include "run/ramp_share.h"
#include "run/steady_share.h"

namespace sluice {

// Per clone: filename_format (when no filename is given) becomes the clone's file names; offset_increment
// moves the clone's offset by jobnum * offset_increment.
void apply_clone_options(JobInstance& instance);

// "$jobname.$jobnum.$filenum" style expansion (fio's filename_format).
std::string expand_filename_format(const std::string& format, const std::string& jobname, int jobnum, int filenum);

// Shared by the jobs with one flow_id: each job's completed ios, weighted. Each job's thread adds to its own
// counter and to the total on every io: the counters sit on cache lines of their own (kCacheLine), so one
// job's add does not evict the line another job is adding to.
class FlowGroup {
 public:
  // Registers a job of weight |flow| (> 0); returns its slot.
  std::size_t join(std::uint32_t weight);
  // Counts one completed io of `slot`.
  void count(std::size_t slot) noexcept;
  // True when the job of `slot` is ahead of its share and must wait (sleep) before its next io.
  bool ahead(std::size_t slot) const noexcept;
  // A finished job no longer counts, so the others are not held back by its share.
  void leave(std::size_t slot) noexcept;

 private:
  static constexpr std::size_t kMaxJobs = 64;
  static constexpr std::size_t kCacheLine = 64;  // x86-64 and most arm64 cores
  struct alignas(kCacheLine) JobIos {
    std::atomic<std::uint64_t> value{0};
  };
  // Read on every io, written only when a job joins or leaves.
  std::atomic<std::uint64_t> total_weight_{0};
  std::size_t jobs_ = 0;  // joined before the group starts (single-threaded)
  std::uint32_t weight_[kMaxJobs]{};
  alignas(kCacheLine) std::atomic<std::uint64_t> total_ios_{0};  // written by every job on every io
  JobIos ios_[kMaxJobs]{};
};

// The run's I/O jobs as a group sees them (cpuio's exit_on_io_done, as fio's
// fio_running_or_pending_io_threads): the clones that do I/O in the groups after it, and whether the run has
// any at all (with none, a cpuio job runs its whole runtime, as in fio).
struct RunIoJobs {
  int clones_in_later_groups = 0;
  bool run_has_io = true;
};

// True when the job's ramp_size counts the bytes of its whole group (group_reporting, as fio 3.42).
inline bool shares_ramp(const JobSpec& job) noexcept { return job.time.ramp_size != 0 && job.report.group_reporting; }

// True when the job's steadystate judges its whole group (group_reporting, as fio's steadystate_check).
inline bool shares_steady_state(const JobSpec& job) noexcept {
  return job.report.group_reporting && job.steady_state.ss_criterion != SteadyStateCriterion::kNone &&
         job.steady_state.ss_duration.count() > 0;
}

class GroupControl {
 public:
  explicit GroupControl(const GroupPlan& group, RunIoJobs io_jobs = {});
  // nullptr when no job of the group uses wait_for, exitall, flow, exit_on_io_done, or ramp_size or
  // steadystate under group_reporting.
  static std::unique_ptr<GroupControl> create(const GroupPlan& group, RunIoJobs io_jobs = {});

  // Blocks until the clones of `me`'s wait_for job have finished, or a stop is requested. Returns false
  // when the group was stopped (exitall or a signal) before the job could start.
  bool wait_turn(const JobInstance& me) noexcept;
  // Called once when a clone ends; exitall, or exitall_on_error when the clone failed, stops the group.
  void finished(const JobInstance& me, bool failed = false) noexcept;
  bool stop_requested() const noexcept { return stop_.load(std::memory_order_relaxed); }
  // True when the run has I/O jobs and none is running or still to come (cpuio's exit_on_io_done).
  bool io_jobs_done() const noexcept {
    return io_jobs_.run_has_io && io_jobs_.clones_in_later_groups == 0 &&
           io_clones_running_.load(std::memory_order_relaxed) == 0;
  }
  // The flow group of flow_id, or nullptr when the job does not use flow.
  FlowGroup* flow_of(const JobSpec& job) noexcept;
  // The slot of a job in its flow group (registered at construction).
  std::size_t flow_slot(const JobInstance& me) const noexcept;
  // ramp_size under group_reporting: the group's shared ramp count, or nullptr when no job has both.
  RampShare* ramp_share() noexcept { return ramp_.get(); }
  // steadystate under group_reporting: the group's pooled counts, or nullptr when no job has both.
  SteadyShare* steady_share() noexcept { return steady_.get(); }

 private:
  std::atomic<bool> stop_{false};
  std::atomic<int> io_clones_running_{0};
  RunIoJobs io_jobs_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::string, int> running_clones_;  // job name -> clones not finished yet
  std::map<std::uint32_t, std::unique_ptr<FlowGroup>> flows_;
  std::map<std::pair<std::string, int>, std::size_t> flow_slots_;
  std::unique_ptr<RampShare> ramp_;
  std::unique_ptr<SteadyShare> steady_;
};

}  // namespace sluice
