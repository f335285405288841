// IoLoop's accounting: what a submitted or completed io adds to the job's result (statistics, depth
// distribution, interval series, live counters, logs, job-control hooks). Per io, no allocation or lock.
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>

#include "report/logs/job_logs.h"
#include "run/io_loop.h"
#include "run/job_hooks.h"

namespace sluice {
namespace {

const std::string kUnknownPath = "?";

Direction direction_of(IoOp op) noexcept {
  switch (op) {
    case IoOp::kWrite:
      return Direction::kWrite;
    case IoOp::kTrim:
      return Direction::kTrim;
    default:
      return Direction::kRead;
  }
}

}  // namespace

bool IoLoop::passes_error(const IoUnit& unit) const noexcept {
  const int error = static_cast<int>(-unit.result);
  return error_is_non_fatal(job_.errors, error_class_of(unit.op == IoOp::kRead, error), error);
}

bool IoLoop::fills_up(const IoUnit& unit) const noexcept {
  return job_.target.fill_device && unit.op == IoOp::kWrite && (unit.result == -ENOSPC || unit.result == -EDQUOT);
}

// Ios just accepted by the engine: the depth distribution counts them at the depth they brought the queue
// to, as fio's io_u_mark_depth does (fio counts every unit taken, and submits what it takes).
void IoLoop::complete(IoUnit& unit, std::uint64_t now) {
  --queue_.in_flight;
  // A read or write that moved nothing (a read past the end of a file truncated under the job) is an error,
  // EIO as fio's "full resid", never an io of 0 bytes counted as done.
  const bool moved_nothing = unit.result == 0 && unit.length > 0 && (unit.op == IoOp::kRead || unit.op == IoOp::kWrite);
  if (moved_nothing) unit.result = -EIO;
  if (source_.rmw && unit.op != IoOp::kWrite && unit.result >= 0) {
    // The chain keeps its unit: the write of the same block is due next (it reuses the buffer).
    source_.rmw->read_done(static_cast<std::uint32_t>(unit.index),
                           NextIo{direction_of(unit.op), unit.file_index, unit.offset, unit.length});
  } else {
    pool_.put(unit);
  }
  if (is_flush(unit.op)) {
    if (!sync_.unsynced.empty()) sync_.unsynced[static_cast<std::size_t>(unit.file_index)] = {};  // fio: at any sync
    if (unit.result >= 0 && verifier_) verifier_->on_sync_completed(unit);
    if (unit.result < 0 && !passes_error(unit)) fail(unit);
    if (unit.result < 0 && passes_error(unit)) {
      note_ignored(unit);
      if (window_.measuring) result_->dirs[index_of(Direction::kWrite)].errors++;  // a sync belongs to the writes
    }
    if (window_.measuring) {
      result_->sync.ios++;
      result_->sync.lat.record(now - unit.submit_begin_ns);
    }
    return;
  }
  if (!acct_.block_infos.empty() && (unit.op == IoOp::kTrim || unit.op == IoOp::kWrite)) note_block_life(unit);
  if (unit.result < 0 && fills_up(unit)) {
    // fill_device: the filesystem is full, which is this job's end, as reaching its size would be.
    // fio counts the write that met the full filesystem in total_ios (issued), as a fatal one.
    if (window_.measuring && !result_->filled_up) result_->dirs[index_of(Direction::kWrite)].fatal_ios++;
    result_->filled_up = true;
    end_reason_ = EndReason::kPatternDone;
    return;
  }
  if (unit.result < 0) {
    if (!passes_error(unit)) {
      fail(unit, moved_nothing);
    } else {
      note_ignored(unit, moved_nothing);
      if (window_.measuring) result_->dirs[index_of(direction_of(unit.op))].errors++;
    }
    return;
  }
  if (verifier_ && !verifier_->on_complete(unit, *result_)) end_reason_ = EndReason::kError;
  if (unit.op == IoOp::kWrite && !sync_.unsynced.empty()) note_unsynced(unit);
  // An io in flight at the time-based end counts when it completes, as fio's (which counts it at issue in
  // total_ios and reaps it into its statistics): the verify state then says completed exactly what is counted.
  if (window_.measuring && (now <= window_.end_ns || !window_.verify_phase)) {
    account_io(unit, now);
    window_.last_counted_ns = std::max(window_.last_counted_ns, now);
    if (source_.rmw && unit.op == IoOp::kWrite) result_->rmw_transactions++;
  } else if (!window_.measuring) {
    window_.ramp_bytes += static_cast<std::uint64_t>(unit.result);  // ramp_size counts what completed, as fio
  }
  if (think_) {
    if (!think_->pacing.thinktime_on_issue) ++think_->ios_since;
    // While a pause waits for the ios in flight, their completions count toward the next period (fio).
    if (!phases_.due(Phase::kThink) && think_due(now)) {
      phases_.request(Phase::kThink);
      think_->busy_ns = now - unit.submit_begin_ns;
    }
  }
}

// fio's handle_thinktime: due after thinktime_blocks ios, or, with thinktime_iotime, once iotime + thinktime
// passed since the last pause began (then the blocks count only when thinktime_blocks was given).
bool IoLoop::think_due(std::uint64_t now) noexcept {
  const PacingOptions& pacing = think_->pacing;
  bool due = false;
  if (pacing.thinktime_iotime.count() > 0) {
    const auto period = static_cast<std::uint64_t>((pacing.thinktime_iotime + pacing.thinktime).count());
    if (now - think_->last_ns >= period) {
      due = true;
    } else if (!think_->blocks_given) {
      return false;
    }
  }
  if (think_->ios_since >= std::max(1u, pacing.thinktime_blocks)) due = true;
  if (!due) return false;
  think_->ios_since = 0;
  think_->last_ns = now;
  return true;
}

// block_error_percentiles: a completed trim counts for its block, a failed trim or write ends the block's life
// (an io over several blocks counts for its first, as fio's).
void IoLoop::note_block_life(const IoUnit& unit) noexcept {
  const TargetFile& file = targets_.front();
  const std::uint64_t block = acct_.trim_block;
  if (unit.offset < file.region_start) return;
  const std::uint64_t index = (unit.offset - file.region_start) / block;
  if (index >= acct_.block_infos.size()) return;
  std::uint32_t& info = acct_.block_infos[static_cast<std::size_t>(index)];
  if (unit.result < 0) {
    note_block_failed(info, unit.op == IoOp::kTrim);
  } else if (unit.op == IoOp::kTrim) {
    note_block_trimmed(info);
  }
}

// sync_file_range: the file's written range since its last sync grows by the completed write (fio's
// file_log_write_comp).
void IoLoop::note_unsynced(const IoUnit& unit) noexcept {
  auto& [begin, end] = sync_.unsynced[static_cast<std::size_t>(unit.file_index)];
  const std::uint64_t last = unit.offset + static_cast<std::uint64_t>(unit.result);
  if (begin == end) {
    begin = unit.offset;
    end = last;
  } else {
    begin = std::min(begin, unit.offset);
    end = std::max(end, last);
  }
}

void IoLoop::account_io(IoUnit& unit, std::uint64_t now) {
  const Direction d = direction_of(unit.op);
  DirectionStats& stats = result_->dirs[index_of(d)];
  // cpuio, exec: a CPU cycle or a wait, counted without bytes (fio's FIO_NOIO).
  const auto bytes = queue_.does_io ? static_cast<std::uint64_t>(unit.result) : 0;
  // Open loop: lat runs from the scheduled arrival, and the time queued before submission is recorded.
  const std::uint64_t arrival =
      source_.open_loop.enabled() ? source_.open_loop.arrival_of(static_cast<std::uint32_t>(unit.index)) : 0;
  const std::uint64_t began = arrival != 0 ? std::min(arrival, unit.submit_begin_ns) : unit.submit_begin_ns;
  const std::uint64_t lat = now - began;
  const std::uint64_t clat = now - unit.submit_end_ns;
  const std::uint64_t slat = unit.submit_end_ns - unit.submit_begin_ns;
  stats.ios++;
  stats.bytes += bytes;
  if (bytes < unit.length && queue_.does_io) stats.short_ios++;
  live_->add(d, bytes);
  if (!unit.timed) {  // a per-file engine's io after the file's operation: counted, not timed (fio's NOSTATS)
    IntervalSample& sample = acct_.interval[index_of(d)];
    sample.ops++;
    sample.bytes += bytes;
    return;
  }
  stats.clat.record(clat);
  if (arrival != 0) stats.queue_wait.record(unit.submit_begin_ns - began);
  // For synchronous engines in closed loop lat equals clat: it is recorded once and copied at the end.
  if (acct_.record_lat) stats.lat.record(lat);
  if (queue_.async) stats.slat.record(slat);
  if (unit.prio_index < stats.prios.size()) {  // cmdprio: the io's priority's share (fio's clat_prio)
    stats.prios[unit.prio_index].latency.record(prio_.stats_use_lat ? lat : clat);
  }
  IntervalSample& sample = acct_.interval[index_of(d)];
  sample.ops++;
  sample.bytes += bytes;
  sample.lat_sum_ns += lat;
  if (logs_) {
    logs_->record(d, now - result_->start_ns, lat, clat, queue_.async ? slat : 0, static_cast<std::uint32_t>(bytes),
                  unit.offset, unit.ioprio);
  }
  if (latency_ && d != Direction::kTrim) on_latency_io(unit, lat, now);
  if (hooks_ &&
      hooks_->after_io(d, lat, unit.file_index, unit.offset, unit.length, *result_) == JobHooks::Verdict::kFail) {
    end_reason_ = EndReason::kError;
  }
}

// latency_target: each read or write's total latency feeds the search (fio's lat_target_failed); with
// latency_percentile=100 an io over the target at depth 1 fails the job with fio's lat_fatal message.
void IoLoop::on_latency_io(const IoUnit& unit, std::uint64_t lat_ns, std::uint64_t now) {
  const LatencyTarget::Step step = latency_->completed(lat_ns, now);
  if (step != LatencyTarget::Step::kFailed) return on_latency_step(step);
  if (result_->error == 0) {
    const auto file = static_cast<std::size_t>(unit.file_index);
    result_->error = ETIMEDOUT;
    const std::string& path = file < targets_.size() ? targets_[file].path : kUnknownPath;
    result_->error_message = fmt::format("latency of {} nsec exceeds specified max ({} nsec): {} {} {} {}", lat_ns,
                                         job_.latency.latency_target.count(), path,
                                         unit.op == IoOp::kWrite ? "write" : "read", unit.offset, unit.length);
  }
  end_reason_ = EndReason::kError;
}

void IoLoop::on_latency_step(LatencyTarget::Step step) noexcept {
  switch (step) {
    case LatencyTarget::Step::kNone:
    case LatencyTarget::Step::kFailed:
      return;
    case LatencyTarget::Step::kRampedDown:
      phases_.request(Phase::kQuiesce);
      return;
    case LatencyTarget::Step::kFinalRun:
      phases_.request(Phase::kQuiesce);
      phases_.restart_after_quiesce = true;
      return;
    case LatencyTarget::Step::kDone:
      if (end_reason_ == EndReason::kNone) end_reason_ = EndReason::kPatternDone;
      return;
  }
}

}  // namespace sluice
