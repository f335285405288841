// IoLoop's per-io loop: take a free unit, load it, submit, reap, account. Setup, the end of the job and
// verification live in io_loop_setup.cpp, io_loop_finish.cpp and io_loop_verify.cpp.
#include "run/io_loop.h"

#include <sys/prctl.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <span>

#include "common/stop_signal.h"
#include "engine/synchronous_engine.h"
#include "report/logs/job_logs.h"
#include "run/job_control.h"
#include "run/job_hooks.h"

namespace sluice {
namespace {

constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();
constexpr std::uint64_t kRampCheckNs = 1'000'000'000;  // fio's RAMP_PERIOD_CHECK_MSEC
// In flight and waiting for the next arrival of a rate-limited job: completions are polled at this grain.
constexpr std::uint64_t kRatePollNs = 20'000;
// Ios a synchronous engine does per turn of the main loop (between stop-request and job-hook checks).
constexpr std::uint32_t kInlineIosPerTurn = 16;
// An open-loop arrival this late is checked against OpenLoopQueue::kMaxBacklog.
constexpr std::uint64_t kBacklogCheckLatenessNs = 1'000'000'000;

IoOp op_of(Direction d) noexcept {
  switch (d) {
    case Direction::kWrite:
      return IoOp::kWrite;
    case Direction::kTrim:
      return IoOp::kTrim;
    default:
      return IoOp::kRead;
  }
}

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) noexcept { return b > kNever - a ? kNever : a + b; }

void load(IoUnit& unit, IoOp op, const NextIo& io) noexcept {
  unit.op = op;
  unit.file_index = io.file_index;
  unit.offset = io.offset;
  unit.length = io.length;
}

// Without refill_buffers the same buffer is written again and again; changing one word per 512-byte sector
// per write keeps deduplicating storage from collapsing the writes (fio's scramble_buffers does the same).
void scramble(void* buffer, std::uint32_t length, Rng& rng) noexcept {
  auto* bytes = static_cast<unsigned char*>(buffer);
  const std::uint64_t salt = rng.next();
  for (std::uint32_t pos = 0; pos + sizeof(std::uint64_t) <= length; pos += 512) {
    std::uint64_t word;
    std::memcpy(&word, bytes + pos, sizeof word);
    word ^= salt + pos;
    std::memcpy(bytes + pos, &word, sizeof word);
  }
}

// Any engine through the Engine interface (io_uring, libaio, test doubles).
struct VirtualOps {
  static constexpr bool kInline = false;
  Engine& engine;
  int submit(std::span<IoUnit* const> batch) { return engine.submit(batch); }
  int reap(unsigned min_events, std::span<IoUnit*> out) { return engine.reap(min_events, out); }
};

// A synchronous engine of a known type: each io is one direct (inlinable) call, completed at once.
template <typename Perform>
struct InlineOps {
  static constexpr bool kInline = true;
  Engine& engine;
  std::int64_t perform(const IoUnit& unit) noexcept { return Perform::perform(engine, unit); }
  int reap(unsigned min_events, std::span<IoUnit*> out) { return engine.reap(min_events, out); }
};

}  // namespace

void IoLoop::run(JobResult& result, LiveCounters& live) {
  result_ = &result;
  live_ = &live;
  result.series = TimeSeries(acct_.series_interval_ns);
  if (source_.schedule.limited() || (think_ && think_->pacing.thinktime.count() > 0))
    prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);

  now_ = clock_.now();
  const TimeOptions& time = window_.time;
  if (time.startdelay.count() > 0) {
    sleep_until(now_ + static_cast<std::uint64_t>(time.startdelay.count()));
    now_ = clock_.now();
  }
  source_.loop_start_ns = source_.last_start_ns = now_;
  if (think_) think_->last_ns = now_;
  source_.drops_cache = job_.target.invalidate && !job_.target.pre_read && !job_.target.direct && queue_.does_io;
  window_.ramp_end_ns = now_ + static_cast<std::uint64_t>(time.ramp_time.count());
  window_.end_ns =
      time.runtime.count() > 0 ? window_.ramp_end_ns + static_cast<std::uint64_t>(time.runtime.count()) : kNever;
  if (time.ramp_size != 0) start_ramp_by_size();
  source_.schedule.start(now_);
  if (time.ramp_time.count() == 0 && time.ramp_size == 0) begin_measuring(now_);
  if (job_.latency.latency_target.count() > 0) {
    latency_.emplace(LatencyTargetSettings{.target_ns = static_cast<std::uint64_t>(job_.latency.latency_target.count()),
                                           .window_ns = static_cast<std::uint64_t>(job_.latency.latency_window.count()),
                                           .percentile = job_.latency.latency_percentile,
                                           .keep_running = job_.latency.latency_run,
                                           .max_depth = queue_.depth},
                     now_);
  }
  if (verifier_ && job_.verification.verify_only) start_verify_only();

  // The engine's concrete type is found once: a synchronous engine's per-io path makes no virtual call.
  Engine& engine = *engine_;
  if (NullPerform::is(engine)) {
    InlineOps<NullPerform> ops{engine};
    run_loop(ops);
  } else if (PsyncPerform::is(engine)) {
    InlineOps<PsyncPerform> ops{engine};
    run_loop(ops);
  } else if (SyncPerform::is(engine)) {
    InlineOps<SyncPerform> ops{engine};
    run_loop(ops);
  } else if (MmapPerform::is(engine)) {
    InlineOps<MmapPerform> ops{engine};
    run_loop(ops);
  } else {
    VirtualOps ops{engine};
    run_loop(ops);
  }
  if (verifier_) finish_verify();
  finish(now_);
}

// Each turn runs the most urgent phase due (phase()); in the steady state (Phase::kIssuing, or a sync
// waiting for the ios in flight) it issues what it may and reaps.
template <typename Ops>
void IoLoop::run_loop(Ops& ops) {
  while (end_reason_ == EndReason::kNone) {
    check_time(now_);
    const Phase phase = this->phase();
    switch (phase) {
      case Phase::kDone:
        return;
      case Phase::kThink:
        drain(true);  // fio's io_u_quiesce: no io is in flight during the pause
        phases_.clear(Phase::kThink);
        think(think_->busy_ns);
        continue;
      case Phase::kQuiesce:  // latency_target lowered the depth (or found it): fio's io_u_quiesce
        drain(true);
        phases_.clear(Phase::kQuiesce);
        if (phases_.restart_after_quiesce) {
          phases_.restart_after_quiesce = false;
          restart_measuring(clock_.now());
        }
        continue;
      default:
        break;
    }
    if (latency_ && window_.measuring) {
      on_latency_step(latency_->check(now_));
      if (end_reason_ != EndReason::kNone) return;
    }
    if (phase == Phase::kSync && queue_.in_flight == 0) {
      issue_sync(sync_.due_op, sync_.due_file);
      continue;
    }
    if (phases_.due(Phase::kNewLoop)) {  // also while a sync waits for the ios in flight (drained first)
      start_new_loop();
      continue;
    }
    if (verify_round_due()) run_verify_rounds();
    fill_and_submit(ops);
    if (queue_.in_flight == 0) {
      // fio pauses after the last io too
      if (pattern_exhausted() && !write_due() && !phases_.due(Phase::kThink)) {
        end_reason_ = EndReason::kPatternDone;
        return;
      }
      if (source_.waiting_for_rate) {
        sleep_until(std::min(source_.pending_arrival_ns, window_.end_ns));
        now_ = clock_.now();
      }
      continue;
    }
    const bool full = queue_.in_flight >= queue_.depth;
    // The next arrival of a rate-limited job is ahead and a unit is free: poll completions (below, at
    // kRatePollNs) instead of blocking until one, which held every arrival due meanwhile until the next
    // completion (the selftest's open loop on the ssd lab: issued ~0.3 ms late at half its capacity).
    const bool due_soon = source_.waiting_for_rate && pool_.has_free();
    reap(ops, io_ready() || due_soon ? 0 : queue_.complete_min);
    // fio's wait_for_completions: a full queue is reaped down to iodepth_low before it is refilled.
    while (full && queue_.in_flight > queue_.depth_low && end_reason_ == EndReason::kNone) reap(ops, 1);
    if (source_.waiting_for_rate && now_ < source_.pending_arrival_ns) {
      sleep_until(std::min({source_.pending_arrival_ns, now_ + kRatePollNs, window_.end_ns}));
      now_ = clock_.now();
    }
  }
}

// Ends the loop on a stop request, the time limit or a job-control verdict; starts measuring after ramp.
void IoLoop::check_time(std::uint64_t now) {
  if (snapshot_requested()) publish_snapshot(now);
  if (stop_requested()) {
    end_reason_ = EndReason::kStop;
    return;
  }
  if (now >= window_.end_ns || stopped_by_flag()) {
    end_reason_ = EndReason::kTime;
    return;
  }
  if (!window_.measuring) {
    if (window_.time.ramp_size != 0) {
      check_ramp_by_size(now);
    } else if (now >= window_.ramp_end_ns) {
      begin_measuring(now);
    }
  }
  if (hooks_) {
    const JobHooks::Verdict verdict = hooks_->poll(now, window_.measuring, *result_);
    if (verdict != JobHooks::Verdict::kContinue) {
      end_reason_ = verdict == JobHooks::Verdict::kEnd ? EndReason::kTime : EndReason::kError;
    }
  }
}

// ramp_size (fio 3.42): no time limit runs during the ramp (runtime starts when measuring does), and the
// condition is looked at once a second from the job's start, as fio's helper thread does (fio 3.42's
// "evaluate ramp up condition once per second"); under group_reporting against the group's bytes.
void IoLoop::start_ramp_by_size() {
  window_.ramp_end_ns = now_ + kRampCheckNs;
  window_.end_ns = kNever;
  if (acct_.report.group_reporting && links_.control != nullptr && links_.control->ramp_share() != nullptr) {
    window_.ramp_share = links_.control->ramp_share();
    window_.ramp_slot = window_.ramp_share->join();
  }
}

void IoLoop::check_ramp_by_size(std::uint64_t now) {
  RampShare* share = window_.ramp_share;
  if (share != nullptr) {
    share->publish(window_.ramp_slot, window_.ramp_bytes);
    if (share->ended()) {  // another job of the group found the ramp done
      begin_measuring(now);
      return;
    }
  }
  if (now < window_.ramp_end_ns) return;
  if ((share != nullptr ? share->total() : window_.ramp_bytes) >= window_.time.ramp_size) {
    if (share != nullptr) share->end();
    begin_measuring(now);
    return;
  }
  while (window_.ramp_end_ns <= now) window_.ramp_end_ns += kRampCheckNs;
}

template <typename Ops>
void IoLoop::fill_and_submit(Ops& ops) {
  source_.waiting_for_rate = false;
  // At most one queue's worth per turn (kInlineIosPerTurn with an inline engine, which frees its unit at
  // once): the main loop must get to check the stop request and the job hooks. The turn also ends at the
  // next boundary of the measured window (end of ramp, end of runtime), so both are met to the io.
  const std::uint32_t limit = Ops::kInline ? kInlineIosPerTurn : pool_.size();
  const std::uint64_t turn_end = window_.measuring ? window_.end_ns : std::min(window_.ramp_end_ns, window_.end_ns);
  for (std::uint32_t issued = 0; issued < limit && now_ < turn_end && may_issue(); ++issued) {
    // A chain's write goes before new arrivals: its transaction is already under way.
    IoUnit* unit = write_due() ? take_rmw_write() : take_pending();
    if (unit == nullptr) break;
    if (unit->op == IoOp::kTrim && !zones_.cursors.empty()) {  // the zone was reset: nothing reaches the file
      complete_zone_trim(*unit);
      continue;
    }
    if (unit->op == IoOp::kWrite) prepare_write(*unit);
    log_issue(*unit);
    if (think_ && think_->pacing.thinktime_on_issue) {
      ++think_->ios_since;
      if (!phases_.due(Phase::kThink) && think_due(now_)) phases_.request(Phase::kThink);
    }
    if constexpr (Ops::kInline) {
      perform_now(ops, *unit);
    } else {
      queue_.batch.push_back(unit);
      if (queue_.batch.size() >= queue_.submit_group) submit_batch(ops);  // see submit_group_size()
    }
  }
  if constexpr (!Ops::kInline) {
    if (!queue_.batch.empty()) submit_batch(ops);
  }
}

// Buffer content and fsync=N bookkeeping of a write about to be submitted.
void IoLoop::prepare_write(IoUnit& unit) {
  if (verifier_) {
    verifier_->fill_write(unit);
  } else if (content_.dedupe) {
    Rng content = content_.dedupe->next();
    fill_buffer(unit.buffer, unit.length, content_.fill_policy, content);
  } else if (content_.fill_policy.refill_each_write) {
    fill_buffer(unit.buffer, unit.length, content_.fill_policy, content_.rng);
  } else if (content_.buffers.scramble_buffers && content_.fill_policy.content != BufferContent::kZero &&
             content_.fill_policy.content != BufferContent::kPattern) {
    scramble(unit.buffer, unit.length, content_.rng);
  }
  sync_.last_write_file = unit.file_index;
  sync_.file_written[static_cast<std::size_t>(unit.file_index)] = true;
  const std::uint32_t every =
      sync_.durability.fsync_blocks ? sync_.durability.fsync_blocks : sync_.durability.fdatasync_blocks;
  if (every && ++sync_.writes_since_sync >= every) {
    sync_.writes_since_sync = 0;
    phases_.request(Phase::kSync);
    sync_.due_op = sync_.durability.fdatasync_blocks ? IoOp::kFdatasync : IoOp::kFsync;
    sync_.due_file = sync_.last_write_file;
  } else if (sync_.durability.sync_file_range_blocks &&
             ++sync_.writes_since_range >= sync_.durability.sync_file_range_blocks) {
    sync_.writes_since_range = 0;  // fio: every N issued writes, unless an fsync is due then
    phases_.request(Phase::kSync);
    sync_.due_op = IoOp::kSyncRange;
    sync_.due_file = sync_.last_write_file;
  }
}

// Draws the next io from the pattern (and its arrival from the schedule) unless one is pending; true when
// it may start now. Sets source_.waiting_for_rate when its arrival is still ahead.
bool IoLoop::pending_ready() {
  if (!source_.has_pending) {
    if (source_.pattern_done || phases_.due(Phase::kSync)) return false;
    if (!(replay_ ? next_from_log() : next_from_pattern())) return false;
  }
  if (phases_.due(Phase::kNewLoop)) return false;
  if (source_.pending_arrival_ns > now_) {
    now_ = clock_.now();
    if (source_.pending_arrival_ns > now_) {
      source_.waiting_for_rate = true;
      return false;
    }
  }
  if (source_.pending_is_sync) {  // a sync of the replayed log, due now
    source_.pending_is_sync = false;
    source_.has_pending = false;
    phases_.request(Phase::kSync);
    return false;
  }
  return true;
}

bool IoLoop::next_from_pattern() {
  NextIo& pending = source_.pending;
  if (!source_.pattern.next(pending)) {
    source_.pattern_done = true;
    return false;
  }
  if (!zones_.cursors.empty() && !fit_pending_to_zones()) return false;
  if (pending.starts_pass && source_.drops_cache) drop_cached(pending.file_index);
  if (pending.starts_loop && job_.target.unlink_each_loop) phases_.request(Phase::kNewLoop);
  source_.has_pending = true;
  source_.pending_from_pattern = true;
  source_.pending_arrival_ns =
      source_.schedule.limited() ? source_.schedule.next_arrival(pending.direction, pending.length) : 0;
  return true;
}

// zonemode=zbd: a write goes to a write pointer, a read below one, a trim resets a zone (ZoneCursor). The
// pattern goes on from where the io really went. The end of what the zones allow ends the job's I/O.
bool IoLoop::fit_pending_to_zones() {
  NextIo& pending = source_.pending;
  const NextIo drawn = pending;
  ZoneCursor& zones = zones_.cursors[static_cast<std::size_t>(pending.file_index)];
  if (pending.direction == Direction::kRead && zones.read_becomes_write()) pending.direction = Direction::kWrite;
  std::string error;
  ZoneFit fit = ZoneFit::kAccept;
  switch (pending.direction) {
    case Direction::kWrite:
      fit = zones.fit_write(pending.offset, pending.length, zones_.resets, error);
      break;
    case Direction::kTrim:
      fit = zones.fit_trim(pending.offset, zones_.resets, error);
      break;
    default:
      if (!zones_.options.read_beyond_wp) fit = zones.fit_read(pending.offset, pending.length);
      break;
  }
  if (fit != ZoneFit::kAccept) {
    if (fit == ZoneFit::kError && result_->error == 0) {
      result_->error = EIO;
      result_->error_message = error;
      end_reason_ = EndReason::kError;
    }
    source_.pattern_done = true;
    return false;
  }
  const std::uint64_t resume = zones.resume_after(pending.direction, pending.offset, pending.length);
  if (resume != drawn.offset + drawn.length || pending.length != drawn.length || pending.direction != drawn.direction) {
    source_.pattern.redirect_last(drawn, pending.direction, resume, pending.length);
  }
  return true;
}

// The log's next io (or sync) becomes the pending one, due its delay after the last io started, as fio's
// iolog_delay (and not before a v2 wait's time, nor the rate's schedule). A sync, once due, is left to the
// main loop (Phase::kSync), which issues it when the ios before it are done.
bool IoLoop::next_from_log() {
  std::uint64_t delay_us = 0;
  while (replay_->next < replay_->log->entries.size()) {
    const IoLogEntry& entry = replay_->log->entries[replay_->next++];
    delay_us = saturating_add(delay_us, entry.delay_us);
    switch (entry.kind) {
      case IoLogEntry::Kind::kWait:
        replay_->hold_until_ns =
            std::max(replay_->hold_until_ns, entry.offset >= (kNever - source_.loop_start_ns) / 1'000'000
                                                 ? kNever
                                                 : source_.loop_start_ns + entry.offset * 1'000'000);
        continue;
      case IoLogEntry::Kind::kSync:
      case IoLogEntry::Kind::kDatasync:
      case IoLogEntry::Kind::kSyncRange:
        source_.pending_is_sync = true;
        sync_.due_op = entry.kind == IoLogEntry::Kind::kSync       ? IoOp::kFsync
                       : entry.kind == IoLogEntry::Kind::kDatasync ? IoOp::kFdatasync
                                                                   : IoOp::kSyncRange;
        sync_.due_file = static_cast<int>(entry.file);
        break;
      default:
        source_.pending.direction = entry.kind == IoLogEntry::Kind::kRead    ? Direction::kRead
                                    : entry.kind == IoLogEntry::Kind::kWrite ? Direction::kWrite
                                                                             : Direction::kTrim;
        source_.pending.file_index = static_cast<int>(entry.file);
        source_.pending.offset = entry.offset;
        source_.pending.length = entry.length;
        break;
    }
    source_.has_pending = true;
    source_.pending_from_pattern = false;
    // Saturating: the log's waits add up (each is at most a day; file events add theirs).
    const std::uint64_t room_us = (kNever - source_.last_start_ns) / 1000;
    std::uint64_t arrival = delay_us == 0 ? 0 : delay_us >= room_us ? kNever : source_.last_start_ns + delay_us * 1000;
    arrival = std::max(arrival, replay_->hold_until_ns);
    if (source_.schedule.limited() && !source_.pending_is_sync) {
      arrival = std::max(arrival, source_.schedule.next_arrival(source_.pending.direction, source_.pending.length));
    }
    source_.pending_arrival_ns = arrival;
    return true;
  }
  source_.pattern_done = true;
  return false;
}

IoUnit& IoLoop::take_free_unit(IoOp op, const NextIo& io) noexcept {
  IoUnit& unit = pool_.take();
  load(unit, op, io);
  assign_priority(unit);
  return unit;
}

// cmdprio: a read or write may get another priority than the job's; syncs and trims never do (fio).
void IoLoop::assign_priority(IoUnit& unit) noexcept {
  unit.prio_index = 0;
  if (unit.op != IoOp::kRead && unit.op != IoOp::kWrite) {
    unit.ioprio = unit.op == IoOp::kTrim ? prio_.default_ioprio : 0;
    return;
  }
  if (!prio_.cmdprio) {
    unit.ioprio = prio_.default_ioprio;
    return;
  }
  const Direction d = unit.op == IoOp::kRead ? Direction::kRead : Direction::kWrite;
  const IoPriority priority = prio_.cmdprio->pick(d, unit.length);
  unit.ioprio = priority.value;
  unit.prio_index = priority.index;
}

// A free unit loaded with the pending io, or null when none may start now. Open loop: the io is the head
// of the arrival queue; a backlog past OpenLoopQueue::kMaxBacklog ends the job with an error.
IoUnit* IoLoop::take_pending() {
  if (!pool_.has_free() || !pending_ready() || pending_overlaps()) return nullptr;
  const NextIo& pending = source_.pending;
  const std::uint64_t arrival = source_.pending_arrival_ns;
  OpenLoopQueue& open_loop = source_.open_loop;
  const bool scheduled = arrival != 0;
  if (open_loop.enabled() && scheduled && now_ > arrival + kBacklogCheckLatenessNs &&
      open_loop.overflowing(pending.direction, pending.length, arrival, now_)) {
    if (result_->error == 0) {
      result_->error = EOVERFLOW;
      result_->error_message = open_loop.overflow_message(pending.direction, pending.length, arrival, now_);
    }
    end_reason_ = EndReason::kError;
    return nullptr;
  }
  IoUnit& unit = take_free_unit(op_of(pending.direction), pending);
  source_.has_pending = false;
  source_.last_start_ns = now_;
  if (open_loop.enabled()) open_loop.start(static_cast<std::uint32_t>(unit.index), arrival, now_);
  return &unit;
}

// The unit of the oldest rmw chain whose read completed, loaded with the write of the same block.
IoUnit* IoLoop::take_rmw_write() {
  std::uint32_t chain = 0;
  NextIo write;
  if (!source_.rmw->take_write(chain, write)) return nullptr;
  IoUnit& unit = pool_.unit(chain);
  load(unit, IoOp::kWrite, write);
  assign_priority(unit);
  if (source_.open_loop.enabled()) source_.open_loop.start(chain, 0, now_);  // not an arrival: lat from its own start
  return &unit;
}

// Here, not with the rest of the accounting (io_loop_account.cpp): it runs for every io, and GCC inlines it only
// within this file.
void IoLoop::count_submitted(std::uint32_t accepted) noexcept {
  if (accepted == 0) return;
  queue_.in_flight += accepted;
  if (!window_.measuring) return;
  IodepthDistribution& depth = result_->depth;
  depth.submit[static_cast<std::size_t>(IodepthDistribution::batch_bucket(accepted))]++;
  depth.total_submit_calls++;
  depth.level[static_cast<std::size_t>(IodepthDistribution::level_bucket(queue_.in_flight))] += accepted;
}

// A synchronous engine of known type: the io is done inside perform(), so it completes here.
template <typename Ops>
void IoLoop::perform_now(Ops& ops, IoUnit& unit) {
  if (file_locks_) file_locks_->acquire(unit);  // lockfile: the whole io, as fio's sync engines
  unit.submit_begin_ns = clock_.now();
  unit.result = ops.perform(unit);
  now_ = clock_.now();
  if (file_locks_) file_locks_->release(unit);
  unit.submit_end_ns = unit.submit_begin_ns;  // no slat: clat is the whole call, as with fio's sync engines
  count_submitted(1);
  if (window_.measuring) {
    result_->depth.complete[static_cast<std::size_t>(IodepthDistribution::batch_bucket(1))]++;
    result_->depth.total_complete_calls++;
  }
  complete(unit, now_);
  if (window_.measuring && now_ >= acct_.next_tick_ns) on_tick(now_);
  if (window_.measuring) take_rate_samples(now_);
}

template <typename Ops>
void IoLoop::submit_batch(Ops& ops) {
  const std::uint64_t begin = clock_.now();
  for (IoUnit* unit : queue_.batch) unit->submit_begin_ns = begin;
  std::size_t done = 0;
  while (done < queue_.batch.size()) {
    const std::span<IoUnit* const> rest(queue_.batch.data() + done, queue_.batch.size() - done);
    if (file_locks_) file_locks_->acquire(rest);  // lockfile: the submission, as fio's td_io_prep..queue
    const int accepted = ops.submit(rest);
    if (file_locks_) file_locks_->release_held();
    const std::uint64_t end = clock_.now();
    const auto n = static_cast<std::uint32_t>(std::max(accepted, 0));
    for (std::size_t i = done; i < done + n; ++i) queue_.batch[i]->submit_end_ns = queue_.async ? end : begin;
    done += n;
    count_submitted(n);
    now_ = end;
    if (!queue_.async) {
      reap(ops, 0);  // a synchronous engine finished the io inside submit(); its completion time is `end`
    } else if (n == 0) {
      reap(ops, 1);  // the queue is full: make room
    }
  }
  queue_.batch.clear();
}

template <typename Ops>
void IoLoop::reap(Ops& ops, unsigned min_events) {
  min_events = std::min(min_events, queue_.in_flight);
  const std::size_t room = std::min<std::size_t>(queue_.complete_max, queue_.in_flight);
  if (room == 0) return;
  const int n = ops.reap(min_events, std::span<IoUnit*>(queue_.completions.data(), room));
  if (queue_.async) now_ = clock_.now();
  if (n <= 0) return;
  if (window_.measuring) {
    result_->depth
        .complete[static_cast<std::size_t>(IodepthDistribution::batch_bucket(static_cast<std::uint32_t>(n)))]++;
    result_->depth.total_complete_calls++;
  }
  for (int i = 0; i < n; ++i) complete(*queue_.completions[static_cast<std::size_t>(i)], now_);
  if (window_.measuring && now_ >= acct_.next_tick_ns) on_tick(now_);
  if (window_.measuring) take_rate_samples(now_);
}

void IoLoop::complete_zone_trim(IoUnit& unit) {
  log_issue(unit);
  unit.submit_begin_ns = unit.submit_end_ns = now_;
  unit.result = static_cast<std::int64_t>(unit.length);
  count_submitted(1);
  complete(unit, now_);
}

void IoLoop::submit_batch() {
  VirtualOps ops{*engine_};
  submit_batch(ops);
}

void IoLoop::reap(unsigned min_events) {
  VirtualOps ops{*engine_};
  reap(ops, min_events);
}

}  // namespace sluice
