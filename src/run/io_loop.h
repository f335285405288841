#pragma once
// IoLoop: the per-io hot path of a worker. Per turn it takes free units, loads them from the pattern (or an
// rmw chain's write), submits them, reaps completions and accounts them into the job's statistics.
// Per io: no allocation, no lock, no syscall beyond the I/O, and no virtual call with a synchronous engine
// (psync, sync, mmap, null: the per-io path is instantiated for the engine's concrete type once per job).
//
// Files: io_loop.cpp is the per-io loop; io_loop_account.cpp adds each io to the result;
// io_loop_setup.cpp builds the pool and opens the engine; io_loop_finish.cpp drains, closes the measured
// window and fills the result; io_loop_verify.cpp moves verify reads through the same submit and reap.
//
// The engine and the clock come from the caller (the Worker passes make_engine() and the process clock):
// tests drive the loop with a fake engine on a fake clock.
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "engine/engine.h"
#include "report/logs/job_logs.h"
#include "run/cpu_snapshot.h"
#include "run/iolog_writer.h"
#include "run/io_pool.h"
#include "run/file_locks.h"
#include "run/io_priorities.h"
#include "run/job_hooks.h"
#include "run/latency_target.h"
#include "run/live_counters.h"
#include "run/loop_clock.h"
#include "run/open_loop_queue.h"
#include "run/pinned_memory.h"
#include "run/rate_sampler.h"
#include "run/plan.h"
#include "run/verifier.h"
#include "run/zoned_file.h"
#include "stats/block_lifetimes.h"
#include "stats/result.h"
#include "targets/target_file.h"
#include "workload/arrival.h"
#include "workload/buffer_fill.h"
#include "workload/dedupe_source.h"
#include "workload/io_pattern.h"
#include "workload/iolog.h"
#include "workload/rmw_chains.h"
#include "common/rng.h"

namespace sluice {

class IoLoop {
 public:
  // engine: not yet opened; prepare() opens it. clock: LoopClock() for the process clock.
  IoLoop(const JobInstance& instance, const std::vector<TargetFile>& targets, std::uint64_t series_interval_ns,
         std::unique_ptr<Engine> engine, LoopClock clock = {});
  ~IoLoop();
  IoLoop(const IoLoop&) = delete;
  IoLoop& operator=(const IoLoop&) = delete;

  // Allocates the io pool and its buffers and opens the engine. Throws UserError / IoError.
  void prepare();
  // Runs the job to its end; fills result (statistics, series, error) and publishes progress in live.
  void run(JobResult& result, LiveCounters& live);
  // rw=randrmw: the pattern plans the reads; each is written back too.
  std::uint64_t planned_bytes() const noexcept {
    if (replay_ != nullptr) return replay_->bytes;
    return pattern_.planned_bytes() * (job_.is_chained() ? 2 : 1);
  }
  // The io buffers (page-aligned; prepare() allocates them): numa_mem_policy moves them to its nodes.
  void* buffer_memory() const noexcept { return pool_.region(); }  // page aligned: mbind's unit
  std::size_t buffer_bytes() const noexcept { return pool_.region_bytes(); }
  // A flag, owned by the caller and outliving run(), that ends this job like its time limit would (the
  // runner stops background jobs with it when the foreground jobs of the group are done). Set before run().
  void set_stop_flag(const std::atomic<bool>* flag) noexcept { stop_flag_ = flag; }
  // The group's job control (wait_for, exitall, flow); may be null. Set before prepare().
  void set_group_control(GroupControl* control) noexcept { control_ = control; }
  // zonemode=zbd: the run's zoned files, shared with the other jobs on them (without, the job's own). Set
  // before prepare().
  void set_zoned_files(ZonedFiles* files) noexcept { zoned_files_ = files; }

 private:
  enum class EndReason { kNone, kPatternDone, kTime, kStop, kError };

  // --- the per-io loop (io_loop.cpp); Ops is VirtualOps or InlineOps<Perform> (see io_loop.cpp)
  template <typename Ops> void run_loop(Ops& ops);
  template <typename Ops> void fill_and_submit(Ops& ops);
  template <typename Ops> void submit_batch(Ops& ops);
  template <typename Ops> void reap(Ops& ops, unsigned min_events);
  template <typename Ops> void perform_now(Ops& ops, IoUnit& unit);
  void submit_batch();                // through the Engine interface (cold paths: sync, verify)
  void reap(unsigned min_events);     // ditto
  bool pending_ready();
  bool next_from_pattern();
  // zonemode=zbd: fits the pending io to the zones (write pointers); false when the job's I/O ends here.
  bool fit_pending_to_zones();
  void open_zones();                  // io_loop_setup.cpp
  void complete_zone_trim(IoUnit& unit);  // a trim under zonemode=zbd reset its zone: done without the engine
  bool next_from_log();
  void log_issue(const IoUnit& unit) noexcept {
    if (iolog_writer_) iolog_writer_->io(now_, unit.file_index, unit.op, unit.offset, unit.length);
  }
  IoUnit* take_pending();
  IoUnit* take_rmw_write();
  IoUnit& take_free_unit(IoOp op, const NextIo& io) noexcept;
  void assign_priority(IoUnit& unit) noexcept;
  void prepare_write(IoUnit& unit);
  void check_time(std::uint64_t now);

  // --- accounting (io_loop_account.cpp)
  void count_submitted(std::uint32_t accepted) noexcept;
  void complete(IoUnit& unit, std::uint64_t now);
  void account_io(IoUnit& unit, std::uint64_t now);
  void note_unsynced(const IoUnit& unit) noexcept;
  void note_block_life(const IoUnit& unit) noexcept;  // block_error_percentiles

  // The named parts of the loop's decision.
  bool write_due() const noexcept { return rmw_ && rmw_->writes_due() > 0; }  // an rmw chain's write waits
  bool pattern_exhausted() const noexcept { return pattern_done_ && !has_pending_; }
  bool may_start_new_io() const noexcept {
    return pool_.has_free() && !pattern_exhausted() && !waiting_for_rate_ && !latency_limits_depth() &&
           !pending_overlaps();
  }
  // serialize_overlap: the next io shares bytes with an io in flight, so it waits for that one to complete.
  bool pending_overlaps() const noexcept {
    return job_.serialize_overlap && has_pending_ &&
           pool_.overlaps_taken(pending_.file_index, pending_.offset, pending_.length);
  }
  // latency_target: the search allows fewer ios in flight than iodepth right now.
  bool latency_limits_depth() const noexcept {
    return latency_ && in_flight_ + static_cast<std::uint32_t>(batch_.size()) >= latency_->depth();
  }
  // verify_backlog or trim_backlog: a round of verify reads or trims is due before the next io (fio checks at
  // every io).
  bool verify_round_due() const noexcept {
    return verifier_ && (verifier_->map().backlog_due() || verifier_->map().trim_due());
  }
  // True when another io could be submitted now without waiting for a completion.
  bool may_issue() const noexcept { return (write_due() || may_start_new_io()) && !sync_due_; }
  bool stopped_by_flag() const noexcept { return stop_flag_ && stop_flag_->load(std::memory_order_relaxed); }
  bool interrupted() const noexcept;

  // --- setup (io_loop_setup.cpp)
  void begin_measuring(std::uint64_t now);
  // latency_target's final window: the statistics start over, the time limit stays (fio's reset_all_stats).
  void restart_measuring(std::uint64_t now);

  // --- latency_target (io_loop_account.cpp)
  void on_latency_io(const IoUnit& unit, std::uint64_t lat_ns, std::uint64_t now);
  void on_latency_step(LatencyTarget::Step step) noexcept;

  // --- the end, and the cold paths (io_loop_finish.cpp)
  void fail(const IoUnit& unit, bool moved_nothing = false);
  // continue_on_error / ignore_error: whether the failed unit's error is counted and passed (fio's classes).
  bool passes_error(const IoUnit& unit) const noexcept;
  // fill_device: a write that failed because the filesystem is full (ENOSPC, EDQUOT) ends the job cleanly.
  bool fills_up(const IoUnit& unit) const noexcept;
  // continue_on_error: keeps the first failure let pass as error_message
  void note_ignored(const IoUnit& unit, bool moved_nothing = false);
  // moved_nothing: a read or write that completed with 0 bytes (reported as EIO, as fio's "full resid").
  std::string describe_failure(const IoUnit& unit, bool moved_nothing = false) const;
  void issue_sync(IoOp op, int file_index);
  void think(std::uint64_t busy_ns);  // thinktime, or think_per_busy x the io's time when longer
  bool think_due(std::uint64_t now) noexcept;  // thinktime_blocks ios counted, or thinktime_iotime passed
  void sleep_until(std::uint64_t deadline_ns);
  // invalidate=1 with buffered I/O: drops a file's cached pages in its region, as fio at each file open, each
  // time_based wrap and before the verify phase, so that reads come from the storage.
  void drop_cached(int file_index) noexcept;
  void close_intervals(std::uint64_t now);
  // bwavgtime / iopsavgtime: the JSON's bw and iops samples, when a window ended (rate_sampler.h).
  void take_rate_samples(std::uint64_t now) noexcept {
    if (bw_sampler_.due(now)) bw_sampler_.sample(now, result_->dirs);
    if (iops_sampler_.due(now)) iops_sampler_.sample(now, result_->dirs);
  }
  const LatencyHistogram& lat_histogram(Direction d) const noexcept;
  void release_rmw_units();
  void drain(bool account);
  void end_fsync();
  void finish(std::uint64_t now);

  // --- data verification (io_loop_verify.cpp); used only when verifier_ is set
  void start_verify_only();
  enum class VerifyRound { kBacklog, kPhase, kTrims, kAllTrims };
  void run_verify_rounds();  // the backlog's reads, then the trims, that are due
  void run_verify_ios(VerifyRound round);
  void finish_verify();
  std::string verify_state_file() const;  // verify_state_save / _load: fio's local-JOB-INDEX-verify.state

  // unlink_each_loop (io_loop_finish.cpp): once the ios in flight are done, the files are deleted and created
  // again empty under the same descriptors, and the engine is opened again on them.
  void start_new_loop();

  // What the job is and what it runs on.
  const JobInstance& instance_;
  const JobSpec& job_;
  const std::vector<TargetFile>& targets_;
  std::unique_ptr<Engine> engine_;
  EngineSetup engine_setup_;               // what the engine was opened with (unlink_each_loop opens it again)
  std::unique_ptr<FileLocks> file_locks_;  // lockfile=; null when none
  LoopClock clock_;
  bool async_ = false;                 // the engine completes ios after submit returns
  bool does_io_ = true;                // false for cpuio and exec: their ios move no bytes
  std::uint32_t submit_group_ = 1;     // ios per submit call (see submit_group_size())
  std::uint32_t complete_min_ = 1;
  std::uint32_t depth_ = 1;      // ios in flight at most
  std::uint32_t depth_low_ = 1;  // iodepth_low: a full queue drains to this before it is refilled
  std::uint32_t complete_max_ = 1;
  IoPool pool_;
  std::vector<IoUnit*> batch_;         // loaded, not yet submitted
  std::vector<IoUnit*> completions_;   // reap's output

  // Where the next io comes from.
  IoPattern pattern_;
  ArrivalSchedule schedule_;
  OpenLoopQueue open_loop_;          // open_loop=1: arrivals queue while every slot is busy
  std::unique_ptr<RmwChains> rmw_;   // rw=randrmw: each read is followed by the write of its block
  BufferFillPolicy fill_policy_;
  Rng buffer_rng_;
  std::unique_ptr<DedupeSource> dedupe_;  // dedupe_percentage: which content each write buffer gets
  NextIo pending_{};                 // drawn from the pattern, not yet started
  bool has_pending_ = false;
  std::uint64_t pending_arrival_ns_ = 0;
  bool pattern_done_ = false;
  bool waiting_for_rate_ = false;    // the pending io's arrival is still ahead
  // read_iolog: the log's ios replace the pattern's (null when the job replays none).
  const IoLog* replay_ = nullptr;
  std::size_t replay_next_ = 0;          // the log's next entry
  std::uint64_t replay_hold_until_ns_ = 0;  // a v2 "wait": no io starts before this
  std::uint64_t last_start_ns_ = 0;     // when the last io started (a v3 io's delay counts from it)
  std::uint64_t loop_start_ns_ = 0;
  bool pending_sync_ = false;           // the pending entry of the log is a sync (due_sync_op_, due_sync_file_)
  IoOp due_sync_op_ = IoOp::kFsync;     // the sync sync_due_ asks for, and its file
  int due_sync_file_ = -1;

  // The loop's state.
  std::uint32_t in_flight_ = 0;
  std::uint32_t writes_since_sync_ = 0;
  std::uint32_t writes_since_range_ = 0;  // sync_file_range=FLAGS:N
  // Per file: the range of the writes completed since its last sync (fio's first_write / last_write), which
  // a sync_file_range covers; begin == end when none.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> unsynced_;
  bool sync_due_ = false;            // fsync=N / fdatasync=N: a sync is due once in-flight ios are done
  int last_write_file_ = -1;
  std::vector<bool> file_written_;
  std::uint32_t ios_since_think_ = 0;
  bool drops_cache_ = false;          // invalidate=1, buffered, not pre_read: drop_cached() at each new pass
  bool thinks_ = false;
  bool think_blocks_given_ = false;  // thinktime_iotime: thinktime_blocks counts too only when given
  bool think_pending_ = false;       // a pause is due once the ios in flight completed (fio's quiesce)
  bool new_loop_due_ = false;        // unlink_each_loop: the files are recreated before the next loop's first io
  std::uint64_t think_busy_ns_ = 0;  // the time of the io that made it due (think_per_busy scales it)
  std::uint64_t last_think_ns_ = 0;  // thinktime_iotime: when the current I/O period began
  std::uint64_t now_ = 0;            // last clock reading
  std::uint64_t end_ns_ = 0;         // time-based end (kNever when none)
  std::uint64_t ramp_end_ns_ = 0;
  std::uint64_t last_counted_ns_ = 0;  // when the last io that counts completed (a time-based end's runtime)
  bool measuring_ = false;
  // The verify phase after the run began: its reads count only inside the measured window (fio has none
  // after a runtime end), while every io the run itself issued counts whenever it completes.
  bool verify_phase_ = false;
  EndReason end_reason_ = EndReason::kNone;

  // Accounting.
  bool record_lat_ = false;          // lat recorded per io (async engines, open loop); else lat = clat
  std::uint64_t series_interval_ns_;
  std::uint64_t next_interval_ns_ = 0;
  PerDirection<IntervalSample> interval_{};
  PerDirection<LatencyHistogram> interval_start_{};  // lat histograms as they were when the interval began
  CpuSnapshot cpu_at_start_{};
  RateSampler bw_sampler_{true};
  RateSampler iops_sampler_{false};

  // Optional features, null when the job does not use them.
  std::unique_ptr<JobLogs> logs_;       // write_*_log
  std::unique_ptr<IoLogWriter> iolog_writer_;  // write_iolog
  std::unique_ptr<PinnedMemory> pinned_;        // lockmem
  std::unique_ptr<Verifier> verifier_;  // verify=
  // zonemode=zbd: per file of the job, its view of the file's zones (empty when the job has none).
  ZonedFiles* zoned_files_ = nullptr;
  std::vector<ZoneCursor> zone_cursors_;
  std::uint64_t zone_resets_ = 0;
  // block_error_percentiles: per trim block of the file's region, its trims and state (stats/block_lifetimes.h).
  std::vector<std::uint32_t> block_infos_;
  GroupControl* control_ = nullptr;
  std::unique_ptr<JobHooks> hooks_;     // fio's job-control features (job_hooks.h)
  std::optional<LatencyTarget> latency_;  // latency_target: the depth the search allows
  std::optional<IoPriorities> priorities_;  // cmdprio_percentage / cmdprio_bssplit: each io's priority
  std::uint16_t default_ioprio_ = 0;        // prio/prioclass (fio's td->ioprio); 0 = none
  bool prio_stats_use_lat_ = false;         // lat_percentiles: the per-priority split is of lat, else of clat
  bool quiesce_pending_ = false;          // latency_target lowered the depth: drain before issuing more
  bool restart_pending_ = false;          // ... and after the drain, the final window's statistics start

  JobResult* result_ = nullptr;
  LiveCounters* live_ = nullptr;
  const std::atomic<bool>* stop_flag_ = nullptr;
};

}  // namespace sluice
