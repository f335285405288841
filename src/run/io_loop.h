#pragma once
// IoLoop: the per-io hot path of a worker. Kept in one small file pair so a reader can hold it in mind:
// fill a batch from the pattern (respecting the rate schedule and fsync=N), submit it, reap completions,
// account them into the job's statistics and time series. Per io: no allocation, no lock, no syscall
// beyond the I/O and the vDSO clock.
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/engine.h"
#include "run/job_hooks.h"
#include "report/logs/job_logs.h"
#include "run/live_counters.h"
#include "run/open_loop_queue.h"
#include "run/plan.h"
#include "run/verifier.h"
#include "stats/result.h"
#include "targets/target_file.h"
#include "workload/arrival.h"
#include "workload/buffer_fill.h"
#include "workload/io_pattern.h"
#include "workload/rmw_chains.h"
#include "common/rng.h"

namespace sluice {

class IoLoop {
 public:
  IoLoop(const JobInstance& instance, const std::vector<TargetFile>& targets, std::uint64_t series_interval_ns);
  ~IoLoop();

  // Creates and opens the engine, allocates the io pool and its buffers. Throws UserError / IoError.
  void prepare();
  // Runs the job to its end; fills result (statistics, series, error) and publishes progress in live.
  void run(JobResult& result, LiveCounters& live);
  // rw=randrmw: the pattern plans the reads; each is written back too.
  std::uint64_t planned_bytes() const noexcept {
    return pattern_.planned_bytes() * (job_.rw == RwMode::kRandRmw ? 2 : 1);
  }
  // A flag, owned by the caller and outliving run(), that ends this job like its time limit would (the
  // runner stops background jobs with it when the foreground jobs of the group are done). Set before run().
  void set_stop_flag(const std::atomic<bool>* flag) noexcept { stop_flag_ = flag; }
  // The group's job control (wait_for, exitall, flow); may be null. Set before prepare().
  void set_group_control(GroupControl* control) noexcept { control_ = control; }

 private:
  enum class EndReason { kNone, kPatternDone, kTime, kStop, kError };

  void fill_and_submit();
  bool pending_ready();
  IoUnit* take_pending();
  IoUnit* take_rmw_write();
  void release_rmw_units();
  bool rmw_writes_due() const noexcept { return rmw_ && rmw_->writes_due() > 0; }
  void submit_batch();
  void reap(unsigned min_events);
  void complete(IoUnit& unit, std::uint64_t now);
  void account_io(IoUnit& unit, std::uint64_t now);
  void fail(const IoUnit& unit);
  void issue_sync(IoOp op, int file_index);
  void begin_measuring(std::uint64_t now);
  void close_intervals(std::uint64_t now);
  const LatencyHistogram& lat_histogram(Direction d) const noexcept;
  void drain(bool account);
  void end_fsync();
  void think();
  void sleep_until(std::uint64_t deadline_ns);
  void finish(std::uint64_t now);
  // Data verification (io_loop_verify.cpp); used only when verifier_ is set.
  void start_verify_only();
  void run_verify_reads(bool backlog);
  void finish_verify();

  const JobInstance& instance_;
  const JobSpec& job_;
  const std::vector<TargetFile>& targets_;

  std::unique_ptr<Engine> engine_;
  EngineCaps caps_;
  std::uint32_t depth_ = 1;
  std::uint32_t submit_batch_size_ = 1;
  std::uint32_t complete_min_ = 1;
  std::uint32_t complete_max_ = 1;

  std::vector<IoUnit> units_;
  std::vector<IoUnit*> free_units_;
  std::vector<IoUnit*> batch_;
  std::vector<IoUnit*> completions_;
  void* buffer_memory_ = nullptr;
  std::uint32_t buffer_stride_ = 0;

  IoPattern pattern_;
  ArrivalSchedule schedule_;
  OpenLoopQueue open_loop_;          // open_loop=1: arrivals queue while every slot is busy
  std::unique_ptr<RmwChains> rmw_;   // rw=randrmw: each read is followed by the write of its block
  bool record_lat_ = false;          // lat recorded per io (async engines, open loop); else lat = clat
  BufferFillPolicy fill_policy_;
  Rng buffer_rng_;

  NextIo pending_{};
  bool has_pending_ = false;
  std::uint64_t pending_arrival_ns_ = 0;
  bool pattern_done_ = false;
  bool waiting_for_rate_ = false;
  std::uint32_t in_flight_ = 0;
  std::uint32_t writes_since_sync_ = 0;
  bool sync_due_ = false;
  int last_write_file_ = -1;
  std::vector<bool> file_written_;
  std::uint32_t ios_since_think_ = 0;

  std::uint64_t now_ = 0;          // last clock reading
  std::uint64_t end_ns_ = 0;       // time-based end (UINT64_MAX when none)
  std::uint64_t ramp_end_ns_ = 0;
  bool measuring_ = false;
  EndReason end_reason_ = EndReason::kNone;

  std::uint64_t series_interval_ns_;
  std::uint64_t next_interval_ns_ = 0;
  PerDirection<IntervalSample> interval_{};
  PerDirection<LatencyHistogram> interval_start_{};  // lat histograms as they were when the interval began

  std::unique_ptr<JobLogs> logs_;  // null unless write_*_log was given
  std::unique_ptr<Verifier> verifier_;  // null unless verify= was given
  GroupControl* control_ = nullptr;
  std::unique_ptr<JobHooks> hooks_;  // null unless the job uses fio's job-control features (job_hooks.h)

  JobResult* result_ = nullptr;
  LiveCounters* live_ = nullptr;
  const std::atomic<bool>* stop_flag_ = nullptr;
  bool stopped_by_flag() const noexcept { return stop_flag_ && stop_flag_->load(std::memory_order_relaxed); }
};

}  // namespace sluice
