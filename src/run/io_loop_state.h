#pragma once
// IoLoop's state, grouped by concern: the loop's phase, its queue, where the next io comes from, the write
// buffers' content, the syncs, think time, the measured window, accounting, and the parts of optional
// features. Plain data owned by one IoLoop (one worker thread); IoLoop's files read and write them.
// Each group that reads options holds the part of the job it reads (job/<part>_options.h), given at
// construction from IoLoopInputs (io_loop_inputs.h): what reads what is visible here. The job outlives
// the loop, so the parts are references.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/rng.h"
#include "engine/engine.h"
#include "job/buffer_options.h"
#include "job/durability_options.h"
#include "job/error_options.h"
#include "job/iolog_options.h"
#include "job/latency_options.h"
#include "job/pacing_options.h"
#include "job/queue_options.h"
#include "job/report_options.h"
#include "job/target_options.h"
#include "job/time_options.h"
#include "job/verify_options.h"
#include "job/zone_options.h"
#include "report/logs/job_logs.h"
#include "run/cpu_snapshot.h"
#include "run/io_priorities.h"
#include "run/open_loop_queue.h"
#include "run/rate_sampler.h"
#include "run/zoned_file.h"
#include "stats/result.h"
#include "targets/target_file.h"
#include "workload/arrival.h"
#include "workload/buffer_fill.h"
#include "workload/dedupe_source.h"
#include "workload/io_pattern.h"
#include "workload/iolog.h"
#include "workload/rmw_chains.h"

namespace sluice {

class GroupControl;  // run/job_control.h
class JobHooks;      // run/job_hooks.h
class RampShare;     // run/ramp_share.h

namespace ioloop {

// What the loop does next. kIssuing is the steady state; kThink and kQuiesce first drain the ios in flight,
// kSync is issued once none is in flight, kNewLoop drains and recreates the files; kDone: the job ended.
enum class Phase : std::uint8_t { kIssuing, kThink, kQuiesce, kSync, kNewLoop, kDone };

// The phases requested and not yet run. Several can be due at once (an io may make both a sync and a pause
// due): next() is the most urgent, in the order think, quiesce, sync, new loop.
class Phases {
 public:
  void request(Phase p) noexcept { due_ |= bit(p); }
  void clear(Phase p) noexcept { due_ &= static_cast<std::uint8_t>(~bit(p)); }
  bool due(Phase p) const noexcept { return (due_ & bit(p)) != 0; }
  // The most urgent phase due; kIssuing when none is.
  Phase next() const noexcept {
    if (due_ == 0) return Phase::kIssuing;
    if (due(Phase::kThink)) return Phase::kThink;
    if (due(Phase::kQuiesce)) return Phase::kQuiesce;
    return due(Phase::kSync) ? Phase::kSync : Phase::kNewLoop;
  }
  // A think, quiesce or sync is due: no io is issued until it ran. (A new loop due stops only new ios from
  // the pattern: the writes of rmw chains under way still go.)
  bool hold_issue() const noexcept {
    return (due_ & (bit(Phase::kThink) | bit(Phase::kQuiesce) | bit(Phase::kSync))) != 0;
  }
  // latency_target's final window: after the quiesce's drain the statistics start over.
  bool restart_after_quiesce = false;

 private:
  static constexpr std::uint8_t bit(Phase p) noexcept {
    return static_cast<std::uint8_t>(1u << static_cast<unsigned>(p));
  }
  std::uint8_t due_ = 0;
};

// What the job is: its name and numbers, the facts derived once from several parts, and the parts only the
// setup and the cold paths read (the end, errors, verification, latency_target).
struct Job {
  std::string name;
  std::uint64_t seed = 0;  // the clone's seed (run/plan.h)
  int lognum = 0;          // the clone's position in the run (log and verify state file names)
  bool does_writes = false;
  bool writes_or_trims = false;       // the engine opens the files for writing
  bool is_chained = false;            // rw=randrmw: each read is written back
  bool trims_written_blocks = false;  // trim_backlog with verify
  std::uint32_t verify_chunk = 0;     // verify=: the bytes one header covers
  const TargetOptions& target;
  const ErrorOptions& errors;
  const LatencyOptions& latency;
  const VerifyOptions& verification;
  const IoLogOptions& iolog;
  LoggedJob logged;  // write_*_log: what JobLogs reads
  // The features whose classes still read many parts of the job: the setup boundary (io_loop_inputs.cpp)
  // binds them to it, and prepare() builds them once.
  std::function<void(const std::vector<TargetFile>&)> check_atomic_writes;
  std::function<std::unique_ptr<JobHooks>(std::vector<std::string> paths, GroupControl*)> make_hooks;
};

// What shapes the queue besides its options: which batch options were given (without them sluice picks
// its own groups, see submit_group_size()) and whether the job's engine merges what one submit holds.
struct QueueContext {
  bool submit_given = false;        // iodepth_batch_submit
  bool complete_max_given = false;  // iodepth_batch_complete_max
  bool engine_merges = false;       // vsync
};

// The engine's queue: its shape (fixed by prepare()) and the ios in it.
struct Queue {
  Queue(const QueueOptions& queue_options, QueueContext queue_context) noexcept
      : options(queue_options), context(queue_context) {}

  const QueueOptions& options;
  QueueContext context;
  bool async = false;              // the engine completes ios after submit returns
  bool does_io = true;             // false for cpuio and exec: their ios move no bytes
  std::uint32_t submit_group = 1;  // ios per submit call (see submit_group_size())
  std::uint32_t complete_min = 1;
  std::uint32_t complete_max = 1;
  std::uint32_t depth = 1;      // ios in flight at most
  std::uint32_t depth_low = 1;  // iodepth_low: a full queue drains to this before it is refilled
  std::uint32_t in_flight = 0;
  std::vector<IoUnit*> batch;        // loaded, not yet submitted
  std::vector<IoUnit*> completions;  // reap's output
};

// Where the next io comes from: the pattern (or a replayed log, IoLoop::replay_) and the arrival schedule.
struct Source {
  // Defined in io_loop_setup.cpp. seed: the clone's; iodepth: open_loop's queue bound.
  Source(IoPattern io_pattern, const PacingOptions& pacing, std::uint64_t seed, std::uint32_t iodepth);

  IoPattern pattern;
  ArrivalSchedule schedule;
  OpenLoopQueue open_loop;         // open_loop=1: arrivals queue while every slot is busy
  std::unique_ptr<RmwChains> rmw;  // rw=randrmw: each read is followed by the write of its block
  NextIo pending{};                // drawn, not yet started
  bool has_pending = false;
  bool pending_from_pattern = false;  // the pending io came from `pattern` (not a replayed log)
  bool pending_is_sync = false;       // the pending entry of a replayed log is a sync (SyncState::due_op)
  bool pattern_done = false;
  bool waiting_for_rate = false;  // the pending io's arrival is still ahead
  bool drops_cache = false;       // invalidate=1, buffered, not pre_read: drop_cached() at each new pass
  std::uint64_t pending_arrival_ns = 0;
  std::uint64_t last_start_ns = 0;  // when the last io started (a v3 log io's delay counts from it)
  std::uint64_t loop_start_ns = 0;
};

// read_iolog: the log whose ios replace the pattern's.
struct Replay {
  const IoLog* log = nullptr;
  std::size_t next = 0;             // the log's next entry
  std::uint64_t hold_until_ns = 0;  // a v2 "wait": no io starts before this
};

// What the write buffers hold.
struct Content {
  const BufferOptions& buffers;
  BufferFillPolicy fill_policy;
  Rng rng;
  std::unique_ptr<DedupeSource> dedupe{};  // dedupe_percentage: which content each write buffer gets
};

// fsync=N, fdatasync=N, sync_file_range, end_fsync and a replayed log's syncs.
struct SyncState {
  SyncState(const DurabilityOptions& durability_options, std::size_t files)
      : durability(durability_options), file_written(files, false) {}

  const DurabilityOptions& durability;
  IoOp due_op = IoOp::kFsync;  // the sync Phase::kSync issues, and its file
  int due_file = -1;
  int last_write_file = -1;
  std::uint32_t writes_since_sync = 0;
  std::uint32_t writes_since_range = 0;  // sync_file_range=FLAGS:N
  // Per file: the range of the writes completed since its last sync (fio's first_write / last_write), which
  // a sync_file_range covers; begin == end when none. Empty unless a sync_file_range may come.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> unsynced;
  std::vector<bool> file_written;  // per file: end_fsync syncs it
  bool end_fsync_done = false;     // verify_policy=fsynced: end_fsync came before the verify phase
};

// thinktime / think_per_busy: the count toward the next pause.
struct Think {
  Think(const PacingOptions& pacing_options, bool thinktime_blocks_given) noexcept
      : pacing(pacing_options), blocks_given(thinktime_blocks_given) {}

  const PacingOptions& pacing;
  bool blocks_given = false;  // thinktime_iotime: thinktime_blocks counts too only when given
  std::uint32_t ios_since = 0;
  std::uint64_t busy_ns = 0;  // the time of the io that made it due (think_per_busy scales it)
  std::uint64_t last_ns = 0;  // thinktime_iotime: when the current I/O period began
};

// The measured window and the job's time limits.
struct Window {
  explicit Window(const TimeOptions& time_options) noexcept : time(time_options) {}

  const TimeOptions& time;
  bool measuring = false;
  // The verify phase after the run began: its reads count only inside the measured window (fio has none
  // after a runtime end), while every io the run itself issued counts whenever it completes.
  bool verify_phase = false;
  std::uint64_t end_ns = 0;           // time-based end (kNever when none)
  std::uint64_t ramp_end_ns = 0;      // ramp_time: its end; ramp_size: the next once-a-second check
  std::uint64_t ramp_bytes = 0;       // ramp_size: the bytes the job completed during its ramp
  RampShare* ramp_share = nullptr;    // ramp_size under group_reporting: the group's count (else null)
  std::size_t ramp_slot = 0;          // this job's slot in ramp_share
  std::uint64_t last_counted_ns = 0;  // when the last io that counts completed (a time-based end's runtime)
};

// What the loop adds to the result besides each io's statistics.
struct Accounting {
  Accounting(const ReportOptions& report_options, std::uint64_t series_interval, std::uint64_t trim_bs) noexcept
      : report(report_options), series_interval_ns(series_interval), trim_block(trim_bs) {}

  const ReportOptions& report;
  bool record_lat = false;  // lat recorded per io (async engines, open loop); else lat = clat
  std::uint64_t series_interval_ns;
  std::uint64_t next_interval_ns = 0;
  std::uint64_t snapshot_interval_ns = 0;  // 0 = no snapshots (periodic reports off), else answer requests
  std::uint64_t next_tick_ns = 0;          // next_interval_ns
  PerDirection<IntervalSample> interval{};
  PerDirection<LatencyHistogram> interval_start{};  // lat histograms as they were when the interval began
  CpuSnapshot cpu_at_start{};
  RateSampler bw_sampler{true};
  RateSampler iops_sampler{false};
  // block_error_percentiles: per trim block of the file's region, its trims and state
  // (stats/block_lifetimes.h); empty when the job does not ask.
  std::uint64_t trim_block;  // the block size of trims
  std::vector<std::uint32_t> block_infos;
};

// zonemode=zbd: per file of the job, its view of the file's zones (empty when the job has none).
struct Zones {
  Zones(const ZoneOptions& zone_options, const ZoneJobSettings& job_settings) noexcept
      : options(zone_options), settings(job_settings) {}

  const ZoneOptions& options;
  ZoneJobSettings settings;  // the job's facts the cursors follow
  std::vector<ZoneCursor> cursors;
  std::uint64_t resets = 0;
};

// The priority each io is issued with, and how its latency is kept apart.
struct Priority {
  std::uint16_t default_ioprio = 0;     // prio/prioclass (fio's td->ioprio); 0 = none
  bool stats_use_lat = false;           // lat_percentiles: the per-priority split is of lat, else of clat
  std::optional<IoPriorities> cmdprio;  // cmdprio_percentage / cmdprio_bssplit: each io's priority
};

// What the caller hands the loop before it runs; each may be null.
struct Links {
  GroupControl* control = nullptr;               // the group's job control (wait_for, exitall, flow)
  ZonedFiles* zoned_files = nullptr;             // zonemode=zbd: the run's zoned files
  const std::atomic<bool>* stop_flag = nullptr;  // ends the job like its time limit (background jobs)
};

}  // namespace ioloop
}  // namespace sluice
