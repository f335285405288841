// IoLoop's per-io loop: take a free unit, load it, submit, reap, account. Setup, the end of the job and
// verification live in io_loop_setup.cpp, io_loop_finish.cpp and io_loop_verify.cpp.
#include "run/io_loop.h"

#include <sys/prctl.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <span>

#include "engine/synchronous_engine.h"
#include "common/stop_signal.h"

namespace sluice {
namespace {

constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();
// In flight and waiting for the next arrival of a rate-limited job: completions are polled at this grain.
constexpr std::uint64_t kRatePollNs = 20'000;
// Ios a synchronous engine does per turn of the main loop (between stop-request and job-hook checks).
constexpr std::uint32_t kInlineIosPerTurn = 16;
// An open-loop arrival this late is checked against OpenLoopQueue::kMaxBacklog.
constexpr std::uint64_t kBacklogCheckLatenessNs = 1'000'000'000;

IoOp op_of(Direction d) noexcept {
  switch (d) {
    case Direction::kWrite: return IoOp::kWrite;
    case Direction::kTrim: return IoOp::kTrim;
    default: return IoOp::kRead;
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
  result.series = TimeSeries(series_interval_ns_);
  if (schedule_.limited() || job_.thinktime.count() > 0) prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);

  now_ = clock_.now();
  if (job_.startdelay.count() > 0) {
    sleep_until(now_ + static_cast<std::uint64_t>(job_.startdelay.count()));
    now_ = clock_.now();
  }
  loop_start_ns_ = last_start_ns_ = last_think_ns_ = now_;
  thinks_ = job_.thinktime.count() > 0 || job_.think_per_busy > 0;
  think_blocks_given_ = job_.given_options.count("thinktime_blocks") != 0;
  drops_cache_ = job_.invalidate && !job_.pre_read && !job_.direct && does_io_;
  ramp_end_ns_ = now_ + static_cast<std::uint64_t>(job_.ramp_time.count());
  end_ns_ = job_.runtime.count() > 0 ? ramp_end_ns_ + static_cast<std::uint64_t>(job_.runtime.count()) : kNever;
  schedule_.start(now_);
  if (job_.ramp_time.count() == 0) begin_measuring(now_);
  if (job_.latency_target.count() > 0) {
    latency_.emplace(LatencyTargetSettings{.target_ns = static_cast<std::uint64_t>(job_.latency_target.count()),
                                           .window_ns = static_cast<std::uint64_t>(job_.latency_window.count()),
                                           .percentile = job_.latency_percentile,
                                           .keep_running = job_.latency_run,
                                           .max_depth = depth_},
                     now_);
  }
  if (verifier_ && job_.verify_only) start_verify_only();

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

template <typename Ops>
void IoLoop::run_loop(Ops& ops) {
  while (end_reason_ == EndReason::kNone) {
    check_time(now_);
    if (end_reason_ != EndReason::kNone) break;
    if (think_pending_) {
      drain(true);  // fio's io_u_quiesce: no io is in flight during the pause
      think_pending_ = false;
      think(think_busy_ns_);
      continue;
    }
    if (quiesce_pending_) {  // latency_target lowered the depth (or found it): fio's io_u_quiesce
      drain(true);
      quiesce_pending_ = false;
      if (restart_pending_) {
        restart_pending_ = false;
        restart_measuring(clock_.now());
      }
      continue;
    }
    if (latency_ && measuring_) {
      on_latency_step(latency_->check(now_));
      if (end_reason_ != EndReason::kNone) break;
    }
    if (sync_due_ && in_flight_ == 0) {
      issue_sync(due_sync_op_, due_sync_file_);
      continue;
    }
    if (new_loop_due_) {
      start_new_loop();
      continue;
    }
    if (verify_round_due()) run_verify_rounds();
    fill_and_submit(ops);
    if (in_flight_ == 0) {
      if (pattern_exhausted() && !write_due() && !think_pending_) {  // fio pauses after the last io too
        end_reason_ = EndReason::kPatternDone;
        break;
      }
      if (waiting_for_rate_) {
        sleep_until(std::min(pending_arrival_ns_, end_ns_));
        now_ = clock_.now();
      }
      continue;
    }
    const bool full = in_flight_ >= depth_;
    // The next arrival of a rate-limited job is ahead and a unit is free: poll completions (below, at
    // kRatePollNs) instead of blocking until one, which held every arrival due meanwhile until the next
    // completion (the selftest's open loop on the ssd lab: issued ~0.3 ms late at half its capacity).
    const bool due_soon = waiting_for_rate_ && pool_.has_free();
    reap(ops, may_issue() || due_soon ? 0 : complete_min_);
    // fio's wait_for_completions: a full queue is reaped down to iodepth_low before it is refilled.
    while (full && in_flight_ > depth_low_ && end_reason_ == EndReason::kNone) reap(ops, 1);
    if (waiting_for_rate_ && now_ < pending_arrival_ns_) {
      sleep_until(std::min({pending_arrival_ns_, now_ + kRatePollNs, end_ns_}));
      now_ = clock_.now();
    }
  }
}

// Ends the loop on a stop request, the time limit or a job-control verdict; starts measuring after ramp.
void IoLoop::check_time(std::uint64_t now) {
  if (stop_requested()) {
    end_reason_ = EndReason::kStop;
    return;
  }
  if (now >= end_ns_ || stopped_by_flag()) {
    end_reason_ = EndReason::kTime;
    return;
  }
  if (!measuring_ && now >= ramp_end_ns_) begin_measuring(now);
  if (hooks_) {
    const JobHooks::Verdict verdict = hooks_->poll(now, measuring_, *result_);
    if (verdict != JobHooks::Verdict::kContinue) {
      end_reason_ = verdict == JobHooks::Verdict::kEnd ? EndReason::kTime : EndReason::kError;
    }
  }
}

template <typename Ops>
void IoLoop::fill_and_submit(Ops& ops) {
  waiting_for_rate_ = false;
  // At most one queue's worth per turn (kInlineIosPerTurn with an inline engine, which frees its unit at
  // once): the main loop must get to check the stop request and the job hooks. The turn also ends at the
  // next phase boundary (end of ramp, end of runtime), so both are met to the io.
  const std::uint32_t limit = Ops::kInline ? kInlineIosPerTurn : pool_.size();
  const std::uint64_t phase_end = measuring_ ? end_ns_ : std::min(ramp_end_ns_, end_ns_);
  for (std::uint32_t issued = 0;
       issued < limit && now_ < phase_end && !sync_due_ && !think_pending_ && !quiesce_pending_ &&
       !latency_limits_depth() && !verify_round_due() && end_reason_ == EndReason::kNone;
       ++issued) {
    // A chain's write goes before new arrivals: its transaction is already under way.
    IoUnit* unit = write_due() ? take_rmw_write() : take_pending();
    if (unit == nullptr) break;
    if (unit->op == IoOp::kTrim && !zone_cursors_.empty()) {  // the zone was reset: nothing reaches the file
      complete_zone_trim(*unit);
      continue;
    }
    if (unit->op == IoOp::kWrite) prepare_write(*unit);
    log_issue(*unit);
    if (thinks_ && job_.thinktime_on_issue) {
      ++ios_since_think_;
      if (!think_pending_ && think_due(now_)) think_pending_ = true;
    }
    if constexpr (Ops::kInline) {
      perform_now(ops, *unit);
    } else {
      batch_.push_back(unit);
      if (batch_.size() >= submit_group_) submit_batch(ops);  // see submit_group_size()
    }
  }
  if constexpr (!Ops::kInline) {
    if (!batch_.empty()) submit_batch(ops);
  }
}

// Buffer content and fsync=N bookkeeping of a write about to be submitted.
void IoLoop::prepare_write(IoUnit& unit) {
  if (verifier_) {
    verifier_->fill_write(unit);
  } else if (dedupe_) {
    Rng content = dedupe_->next();
    fill_buffer(unit.buffer, unit.length, fill_policy_, content);
  } else if (fill_policy_.refill_each_write) {
    fill_buffer(unit.buffer, unit.length, fill_policy_, buffer_rng_);
  } else if (job_.scramble_buffers && fill_policy_.content != BufferContent::kZero &&
             fill_policy_.content != BufferContent::kPattern) {
    scramble(unit.buffer, unit.length, buffer_rng_);
  }
  last_write_file_ = unit.file_index;
  file_written_[static_cast<std::size_t>(unit.file_index)] = true;
  const std::uint32_t every = job_.fsync_blocks ? job_.fsync_blocks : job_.fdatasync_blocks;
  if (every && ++writes_since_sync_ >= every) {
    writes_since_sync_ = 0;
    sync_due_ = true;
    due_sync_op_ = job_.fdatasync_blocks ? IoOp::kFdatasync : IoOp::kFsync;
    due_sync_file_ = last_write_file_;
  } else if (job_.sync_file_range_blocks && ++writes_since_range_ >= job_.sync_file_range_blocks) {
    writes_since_range_ = 0;  // fio: every N issued writes, unless an fsync is due then
    sync_due_ = true;
    due_sync_op_ = IoOp::kSyncRange;
    due_sync_file_ = last_write_file_;
  }
}

// Draws the next io from the pattern (and its arrival from the schedule) unless one is pending; true when
// it may start now. Sets waiting_for_rate_ when its arrival is still ahead.
bool IoLoop::pending_ready() {
  if (!has_pending_) {
    if (pattern_done_ || sync_due_) return false;
    if (!(replay_ ? next_from_log() : next_from_pattern())) return false;
  }
  if (new_loop_due_) return false;
  if (pending_arrival_ns_ > now_) {
    now_ = clock_.now();
    if (pending_arrival_ns_ > now_) {
      waiting_for_rate_ = true;
      return false;
    }
  }
  if (pending_sync_) {  // a sync of the replayed log, due now
    pending_sync_ = false;
    has_pending_ = false;
    sync_due_ = true;
    return false;
  }
  return true;
}

bool IoLoop::next_from_pattern() {
  if (!pattern_.next(pending_)) {
    pattern_done_ = true;
    return false;
  }
  if (!zone_cursors_.empty() && !fit_pending_to_zones()) return false;
  if (pending_.starts_pass && drops_cache_) drop_cached(pending_.file_index);
  if (pending_.starts_loop && job_.unlink_each_loop) new_loop_due_ = true;
  has_pending_ = true;
  pending_arrival_ns_ = schedule_.limited() ? schedule_.next_arrival(pending_.direction, pending_.length) : 0;
  return true;
}

// zonemode=zbd: a write goes to a write pointer, a read below one, a trim resets a zone (ZoneCursor). The
// pattern goes on from where the io really went. The end of what the zones allow ends the job's I/O.
bool IoLoop::fit_pending_to_zones() {
  const NextIo drawn = pending_;
  ZoneCursor& zones = zone_cursors_[static_cast<std::size_t>(pending_.file_index)];
  if (pending_.direction == Direction::kRead && zones.read_becomes_write()) pending_.direction = Direction::kWrite;
  std::string error;
  ZoneFit fit = ZoneFit::kAccept;
  switch (pending_.direction) {
    case Direction::kWrite: fit = zones.fit_write(pending_.offset, pending_.length, zone_resets_, error); break;
    case Direction::kTrim: fit = zones.fit_trim(pending_.offset, zone_resets_, error); break;
    default:
      if (!job_.read_beyond_wp) fit = zones.fit_read(pending_.offset, pending_.length);
      break;
  }
  if (fit != ZoneFit::kAccept) {
    if (fit == ZoneFit::kError && result_->error == 0) {
      result_->error = EIO;
      result_->error_message = error;
      end_reason_ = EndReason::kError;
    }
    pattern_done_ = true;
    return false;
  }
  const std::uint64_t resume = zones.resume_after(pending_.direction, pending_.offset, pending_.length);
  if (resume != drawn.offset + drawn.length || pending_.length != drawn.length ||
      pending_.direction != drawn.direction) {
    pattern_.redirect_last(drawn, pending_.direction, resume, pending_.length);
  }
  return true;
}

// The log's next io (or sync) becomes the pending one, due its delay after the last io started, as fio's
// iolog_delay (and not before a v2 wait's time, nor the rate's schedule). A sync, once due, is left to the
// main loop (sync_due_), which issues it when the ios before it are done.
bool IoLoop::next_from_log() {
  std::uint64_t delay_us = 0;
  while (replay_next_ < replay_->entries.size()) {
    const IoLogEntry& entry = replay_->entries[replay_next_++];
    delay_us = saturating_add(delay_us, entry.delay_us);
    switch (entry.kind) {
      case IoLogEntry::Kind::kWait:
        replay_hold_until_ns_ =
            std::max(replay_hold_until_ns_, entry.offset >= (kNever - loop_start_ns_) / 1'000'000
                                                ? kNever
                                                : loop_start_ns_ + entry.offset * 1'000'000);
        continue;
      case IoLogEntry::Kind::kSync:
      case IoLogEntry::Kind::kDatasync:
      case IoLogEntry::Kind::kSyncRange:
        pending_sync_ = true;
        due_sync_op_ = entry.kind == IoLogEntry::Kind::kSync       ? IoOp::kFsync
                       : entry.kind == IoLogEntry::Kind::kDatasync ? IoOp::kFdatasync
                                                                   : IoOp::kSyncRange;
        due_sync_file_ = static_cast<int>(entry.file);
        break;
      default:
        pending_.direction = entry.kind == IoLogEntry::Kind::kRead    ? Direction::kRead
                             : entry.kind == IoLogEntry::Kind::kWrite ? Direction::kWrite
                                                                      : Direction::kTrim;
        pending_.file_index = static_cast<int>(entry.file);
        pending_.offset = entry.offset;
        pending_.length = entry.length;
        break;
    }
    has_pending_ = true;
    // Saturating: the log's waits add up (each is at most a day; file events add theirs).
    const std::uint64_t room_us = (kNever - last_start_ns_) / 1000;
    std::uint64_t arrival = delay_us == 0 ? 0 : delay_us >= room_us ? kNever : last_start_ns_ + delay_us * 1000;
    arrival = std::max(arrival, replay_hold_until_ns_);
    if (schedule_.limited() && !pending_sync_) {
      arrival = std::max(arrival, schedule_.next_arrival(pending_.direction, pending_.length));
    }
    pending_arrival_ns_ = arrival;
    return true;
  }
  pattern_done_ = true;
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
    unit.ioprio = unit.op == IoOp::kTrim ? default_ioprio_ : 0;
    return;
  }
  if (!priorities_) {
    unit.ioprio = default_ioprio_;
    return;
  }
  const Direction d = unit.op == IoOp::kRead ? Direction::kRead : Direction::kWrite;
  const IoPriority priority = priorities_->pick(d, unit.length);
  unit.ioprio = priority.value;
  unit.prio_index = priority.index;
}

// A free unit loaded with the pending io, or null when none may start now. Open loop: the io is the head
// of the arrival queue; a backlog past OpenLoopQueue::kMaxBacklog ends the job with an error.
IoUnit* IoLoop::take_pending() {
  if (!pool_.has_free() || !pending_ready() || pending_overlaps()) return nullptr;
  const bool scheduled = pending_arrival_ns_ != 0;
  if (open_loop_.enabled() && scheduled && now_ > pending_arrival_ns_ + kBacklogCheckLatenessNs &&
      open_loop_.overflowing(pending_.direction, pending_.length, pending_arrival_ns_, now_)) {
    if (result_->error == 0) {
      result_->error = EOVERFLOW;
      result_->error_message =
          open_loop_.overflow_message(pending_.direction, pending_.length, pending_arrival_ns_, now_);
    }
    end_reason_ = EndReason::kError;
    return nullptr;
  }
  IoUnit& unit = take_free_unit(op_of(pending_.direction), pending_);
  has_pending_ = false;
  last_start_ns_ = now_;
  if (open_loop_.enabled()) open_loop_.start(static_cast<std::uint32_t>(unit.index), pending_arrival_ns_, now_);
  return &unit;
}

// The unit of the oldest rmw chain whose read completed, loaded with the write of the same block.
IoUnit* IoLoop::take_rmw_write() {
  std::uint32_t chain = 0;
  NextIo write;
  if (!rmw_->take_write(chain, write)) return nullptr;
  IoUnit& unit = pool_.unit(chain);
  load(unit, IoOp::kWrite, write);
  assign_priority(unit);
  if (open_loop_.enabled()) open_loop_.start(chain, 0, now_);  // not an arrival: lat from its own start
  return &unit;
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
  if (measuring_) {
    result_->depth.complete[static_cast<std::size_t>(IodepthDistribution::batch_bucket(1))]++;
    result_->depth.total_complete_calls++;
  }
  complete(unit, now_);
  if (measuring_ && now_ >= next_interval_ns_) close_intervals(now_);
  if (measuring_) take_rate_samples(now_);
}

template <typename Ops>
void IoLoop::submit_batch(Ops& ops) {
  const std::uint64_t begin = clock_.now();
  for (IoUnit* unit : batch_) unit->submit_begin_ns = begin;
  std::size_t done = 0;
  while (done < batch_.size()) {
    const std::span<IoUnit* const> rest(batch_.data() + done, batch_.size() - done);
    if (file_locks_) file_locks_->acquire(rest);  // lockfile: the submission, as fio's td_io_prep..queue
    const int accepted = ops.submit(rest);
    if (file_locks_) file_locks_->release_held();
    const std::uint64_t end = clock_.now();
    const auto n = static_cast<std::uint32_t>(std::max(accepted, 0));
    for (std::size_t i = done; i < done + n; ++i) batch_[i]->submit_end_ns = async_ ? end : begin;
    done += n;
    count_submitted(n);
    now_ = end;
    if (!async_) {
      reap(ops, 0);  // a synchronous engine finished the io inside submit(); its completion time is `end`
    } else if (n == 0) {
      reap(ops, 1);  // the queue is full: make room
    }
  }
  batch_.clear();
}

template <typename Ops>
void IoLoop::reap(Ops& ops, unsigned min_events) {
  min_events = std::min(min_events, in_flight_);
  const std::size_t room = std::min<std::size_t>(complete_max_, in_flight_);
  if (room == 0) return;
  const int n = ops.reap(min_events, std::span<IoUnit*>(completions_.data(), room));
  if (async_) now_ = clock_.now();
  if (n <= 0) return;
  if (measuring_) {
    result_->depth.complete[static_cast<std::size_t>(IodepthDistribution::batch_bucket(static_cast<std::uint32_t>(n)))]++;
    result_->depth.total_complete_calls++;
  }
  for (int i = 0; i < n; ++i) complete(*completions_[static_cast<std::size_t>(i)], now_);
  if (measuring_ && now_ >= next_interval_ns_) close_intervals(now_);
  if (measuring_) take_rate_samples(now_);
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
