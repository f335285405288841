#pragma once
// IoLoop: the per-io hot path of a worker. Per turn it takes free units, loads them from the pattern (or an
// rmw chain's write), submits them, reaps completions and accounts them into the job's statistics. Between
// turns it may run a phase instead (Phase, io_loop_state.h): a think-time pause, latency_target's quiesce,
// a sync, unlink_each_loop's new loop; each turn runs the most urgent phase due (phase()), else issues while
// may_issue() allows. Its state is grouped by concern in the structs of io_loop_state.h.
// Per io: no allocation, no lock, no syscall beyond the I/O, and no virtual call with a synchronous engine
// (psync, sync, mmap, null: the per-io path is instantiated for the engine's concrete type once per job).
//
// Files: io_loop.cpp is the per-io loop; io_loop_account.cpp adds each io to the result;
// io_loop_setup.cpp builds the pool and opens the engine; io_loop_finish.cpp drains, closes the measured
// window and fills the result; io_loop_verify.cpp moves verify reads through the same submit and reap.
//
// The engine and the clock come from the caller (the Worker passes make_engine() and the process clock):
// tests drive the loop with a fake engine on a fake clock. The job comes as IoLoopInputs (io_loop_inputs.h):
// the loop holds only the parts of it that it reads, each in the state group that reads it.
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "run/file_locks.h"
#include "run/io_loop_inputs.h"
#include "run/io_loop_state.h"
#include "run/io_pool.h"
#include "run/iolog_writer.h"
#include "run/latency_target.h"
#include "run/live_counters.h"
#include "run/loop_clock.h"
#include "run/pinned_memory.h"
#include "run/verifier.h"
#include "stats/block_lifetimes.h"

namespace sluice {

class JobHooks;  // run/job_hooks.h
class JobLogs;   // report/logs/job_logs.h

class IoLoop {
 public:
  // inputs: io_loop_inputs(instance, targets). engine: not yet opened; prepare() opens it. clock: LoopClock()
  // for the process clock.
  IoLoop(IoLoopInputs inputs, const std::vector<TargetFile>& targets, std::uint64_t series_interval_ns,
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
    if (replay_) return replay_->log->bytes;
    return source_.pattern.planned_bytes() * (job_.is_chained ? 2 : 1);
  }
  // The io buffers (page-aligned; prepare() allocates them): numa_mem_policy moves them to its nodes.
  void* buffer_memory() const noexcept { return pool_.region(); }  // page aligned: mbind's unit
  std::size_t buffer_bytes() const noexcept { return pool_.region_bytes(); }
  // A flag, owned by the caller and outliving run(), that ends this job like its time limit would (the
  // runner stops background jobs with it when the foreground jobs of the group are done). Set before run().
  void set_stop_flag(const std::atomic<bool>* flag) noexcept { links_.stop_flag = flag; }
  // --status-interval (interval_ns != 0): publishes the result so far into live.snapshot whenever the reporting
  // thread asks (at the next loop turn, or at once while sleeping) during the measured phase, and at the end;
  // 0 = never. Call before run().
  void set_snapshot_interval(std::uint64_t interval_ns) noexcept { acct_.snapshot_interval_ns = interval_ns; }
  // The group's job control (wait_for, exitall, flow); may be null. Set before prepare().
  void set_group_control(GroupControl* control) noexcept { links_.control = control; }
  // zonemode=zbd: the run's zoned files, shared with the other jobs on them (without, the job's own). Set
  // before prepare().
  void set_zoned_files(ZonedFiles* files) noexcept { links_.zoned_files = files; }

 private:
  enum class EndReason { kNone, kPatternDone, kTime, kStop, kError };
  using Phase = ioloop::Phase;

  // --- the per-io loop (io_loop.cpp); Ops is VirtualOps or InlineOps<Perform> (see io_loop.cpp)
  template <typename Ops>
  void run_loop(Ops& ops);
  template <typename Ops>
  void fill_and_submit(Ops& ops);
  template <typename Ops>
  void submit_batch(Ops& ops);
  template <typename Ops>
  void reap(Ops& ops, unsigned min_events);
  template <typename Ops>
  void perform_now(Ops& ops, IoUnit& unit);
  void submit_batch();             // through the Engine interface (cold paths: sync, verify)
  void reap(unsigned min_events);  // ditto
  bool pending_ready();
  bool next_from_pattern();
  // zonemode=zbd: fits the pending io to the zones (write pointers); false when the job's I/O ends here.
  bool fit_pending_to_zones();
  void open_zones();                      // io_loop_setup.cpp
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

  // The named parts of the loop's decision. [[gnu::always_inline]] on the per-io ones: IoLoop's unity batch
  // reaches GCC's inline-unit-growth limit, which otherwise leaves some of them out of line.
  // An rmw chain's write waits.
  bool write_due() const noexcept { return source_.rmw && source_.rmw->writes_due() > 0; }
  bool pattern_exhausted() const noexcept { return source_.pattern_done && !source_.has_pending; }
  bool may_start_new_io() const noexcept {
    return pool_.has_free() && !pattern_exhausted() && !source_.waiting_for_rate && !latency_limits_depth() &&
           !pending_overlaps();
  }
  // serialize_overlap: the next io shares bytes with an io in flight, so it waits for that one to complete.
  bool pending_overlaps() const noexcept {
    return queue_.options.serialize_overlap && source_.has_pending &&
           pool_.overlaps_taken(source_.pending.file_index, source_.pending.offset, source_.pending.length);
  }
  // latency_target: the search allows fewer ios in flight than iodepth right now.
  bool latency_limits_depth() const noexcept {
    return latency_ && queue_.in_flight + static_cast<std::uint32_t>(queue_.batch.size()) >= latency_->depth();
  }
  // verify_backlog or trim_backlog: a round of verify reads or trims is due before the next io (fio checks at
  // every io).
  [[gnu::always_inline]] bool verify_round_due() const noexcept {
    return verifier_ && (verifier_->map().backlog_due() || verifier_->map().trim_due());
  }
  // True when another io could be submitted now without waiting for a completion (reap then does not block).
  bool io_ready() const noexcept { return (write_due() || may_start_new_io()) && !phases_.due(Phase::kSync); }
  // The issue guard of a turn (fill_and_submit): another io may go now. Not once the job ended, nor while a
  // phase that needs the queue drained or a sync is due, nor while latency_target holds the depth down, nor
  // when a verify or trim round is due first (it drains the queue).
  [[gnu::always_inline]] bool may_issue() const noexcept {
    return end_reason_ == EndReason::kNone && !phases_.hold_issue() && !latency_limits_depth() && !verify_round_due();
  }
  // The phase the next turn runs: kDone once the job ended, else the most urgent one due.
  Phase phase() const noexcept { return end_reason_ != EndReason::kNone ? Phase::kDone : phases_.next(); }
  bool stopped_by_flag() const noexcept {
    return links_.stop_flag && links_.stop_flag->load(std::memory_order_relaxed);
  }
  bool interrupted() const noexcept;
  bool snapshot_requested() const noexcept;

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
  void think(std::uint64_t busy_ns);           // thinktime, or think_per_busy x the io's time when longer
  bool think_due(std::uint64_t now) noexcept;  // thinktime_blocks ios counted, or thinktime_iotime passed
  void sleep_until(std::uint64_t deadline_ns);
  // invalidate=1 with buffered I/O: drops a file's cached pages in its region, as fio at each file open, each
  // time_based wrap and before the verify phase, so that reads come from the storage.
  void drop_cached(int file_index) noexcept;
  void close_intervals(std::uint64_t now);
  void on_tick(std::uint64_t now);
  void publish_snapshot(std::uint64_t now);
  // bwavgtime / iopsavgtime: the JSON's bw and iops samples, when a window ended (rate_sampler.h).
  [[gnu::always_inline]] void take_rate_samples(std::uint64_t now) noexcept {
    if (acct_.bw_sampler.due(now)) acct_.bw_sampler.sample(now, result_->dirs);
    if (acct_.iops_sampler.due(now)) acct_.iops_sampler.sample(now, result_->dirs);
  }
  const LatencyHistogram& lat_histogram(Direction d) const noexcept;
  void release_rmw_units();
  void drain(bool account);
  void end_fsync();
  void start_ramp_by_size();
  void check_ramp_by_size(std::uint64_t now);
  void end_syncfs();
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
  ioloop::Job job_;
  const std::vector<TargetFile>& targets_;
  std::unique_ptr<Engine> engine_;
  LoopClock clock_;
  ioloop::Links links_;
  JobResult* result_ = nullptr;
  LiveCounters* live_ = nullptr;

  // The loop's state, by concern (io_loop_state.h).
  ioloop::Phases phases_;
  EndReason end_reason_ = EndReason::kNone;
  std::uint64_t now_ = 0;  // last clock reading
  ioloop::Window window_;
  ioloop::Queue queue_;
  IoPool pool_;
  ioloop::Source source_;
  ioloop::Content content_;
  ioloop::SyncState sync_;
  ioloop::Accounting acct_;
  ioloop::Priority prio_;

  // Optional features: empty or null when the job does not use them.
  std::optional<ioloop::Replay> replay_;       // read_iolog
  std::optional<ioloop::Think> think_;         // thinktime, think_per_busy
  std::optional<LatencyTarget> latency_;       // latency_target: the depth the search allows
  std::unique_ptr<EngineSetup> engine_setup_;  // unlink_each_loop: what the engine is opened again with
  ioloop::Zones zones_;                        // zonemode=zbd
  std::unique_ptr<FileLocks> file_locks_;      // lockfile=
  std::unique_ptr<JobLogs> logs_;              // write_*_log
  std::unique_ptr<IoLogWriter> iolog_writer_;  // write_iolog
  std::unique_ptr<PinnedMemory> pinned_;       // lockmem
  std::unique_ptr<Verifier> verifier_;         // verify=
  std::unique_ptr<JobHooks> hooks_;            // fio's job-control features (job_hooks.h)
};

}  // namespace sluice
