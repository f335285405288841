// IoLoop's cold paths: failures, fsync, think time and sleeping, the per-interval series, and the end of
// the job (drain, end_fsync, the measured window, CPU usage, the per-interval IOPS and bandwidth samples).
#include <fcntl.h>
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "common/stop_signal.h"
#include "report/logs/job_logs.h"
#include "run/io_loop.h"
#include "run/job_hooks.h"
#include "targets/sync_filesystems.h"

namespace sluice {
namespace {

// A replayed sync_file_range line of a job without the option: wait, write out and wait (a full flush).
constexpr std::uint32_t kAllRangeFlags = 1 | 2 | 4;

const char* op_name(IoOp op) noexcept {
  switch (op) {
    case IoOp::kRead:
      return "read";
    case IoOp::kWrite:
      return "write";
    case IoOp::kTrim:
      return "trim";
    case IoOp::kFsync:
      return "fsync";
    case IoOp::kFdatasync:
      return "fdatasync";
    case IoOp::kSyncRange:
      return "sync_file_range";
  }
  return "io";
}

}  // namespace

bool IoLoop::interrupted() const noexcept { return stop_requested() || stopped_by_flag(); }

// "write of 4096 bytes at offset 8192 of /d/f failed: Input/output error"; "fsync of /d/f failed: ...".
std::string IoLoop::describe_failure(const IoUnit& unit, bool moved_nothing) const {
  const int err = static_cast<int>(-unit.result);
  const std::string path = unit.file_index >= 0 && static_cast<std::size_t>(unit.file_index) < targets_.size()
                               ? targets_[static_cast<std::size_t>(unit.file_index)].path
                               : std::string("?");
  if (is_flush(unit.op)) {
    return fmt::format("{} of {} failed: {}", op_name(unit.op), path, std::strerror(err));
  }
  if (moved_nothing) {
    return fmt::format(
        "{} of {} bytes at offset {} of {} returned 0 bytes ({}): {}", op_name(unit.op), unit.length, unit.offset, path,
        unit.op == IoOp::kRead ? "end of file: was it truncated or removed while the job ran?" : "nothing was written",
        std::strerror(err));
  }
  return fmt::format("{} of {} bytes at offset {} of {} failed: {}", op_name(unit.op), unit.length, unit.offset, path,
                     std::strerror(err));
}

void IoLoop::fail(const IoUnit& unit, bool moved_nothing) {
  if (result_->error != 0) return;
  if (window_.measuring && (unit.op == IoOp::kRead || unit.op == IoOp::kWrite || unit.op == IoOp::kTrim)) {
    result_
        ->dirs[index_of(unit.op == IoOp::kRead    ? Direction::kRead
                        : unit.op == IoOp::kWrite ? Direction::kWrite
                                                  : Direction::kTrim)]
        .fatal_ios++;
  }
  result_->error = static_cast<int>(-unit.result);
  result_->error_message = describe_failure(unit, moved_nothing);
  end_reason_ = EndReason::kError;
}

// With error still 0, error_message holds the first failure continue_on_error let pass; a later fatal
// error (verify, open-loop backlog) replaces it.
// error_dump prints each passed error as it happens.
void IoLoop::note_ignored(const IoUnit& unit, bool moved_nothing) {
  if (job_.errors.error_dump) {
    std::fprintf(stderr, "sluice: job %s: %s (passed: continue_on_error)\n", result_->name.c_str(),
                 describe_failure(unit, moved_nothing).c_str());
  }
  if (result_->error != 0 || !result_->error_message.empty()) return;
  result_->error_message = describe_failure(unit, moved_nothing);
}

// Submits one fsync / fdatasync of the file and waits for it (and anything else in flight).
void IoLoop::issue_sync(IoOp op, int file_index) {
  phases_.clear(Phase::kSync);
  source_.last_start_ns = clock_.now();  // a replayed log's next io counts its delay from here, as from an io
  if (file_index < 0 || !pool_.has_free()) return;
  IoUnit& unit = take_free_unit(op, NextIo{Direction::kWrite, file_index, 0, 0});
  if (op == IoOp::kSyncRange) {
    const auto [begin, end] = sync_.unsynced[static_cast<std::size_t>(file_index)];
    unit.offset = begin;
    unit.length = end - begin > UINT32_MAX ? 0 : static_cast<std::uint32_t>(end - begin);  // 0: to the end
    // Nothing written since the last sync: fio skips the call; flags 0 make the kernel's a no-op.
    unit.range_flags = end > begin ? static_cast<std::uint8_t>(sync_.durability.sync_file_range_flags != 0
                                                                   ? sync_.durability.sync_file_range_flags
                                                                   : kAllRangeFlags)
                                   : 0;
  }
  if (verifier_) verifier_->on_sync_submitted(unit);
  log_issue(unit);
  queue_.batch.push_back(&unit);
  submit_batch();
  while (queue_.in_flight > 0) reap(1);
}

void IoLoop::start_new_loop() {
  drain(true);  // fio's loop boundary: the last loop's ios are done before its files go
  phases_.clear(Phase::kNewLoop);
  for (const TargetFile& t : targets_) {
    if (std::optional<TargetFailure> failure = recreate_empty(t)) {
      result_->error = failure->error;
      result_->error_message = failure->message;
      end_reason_ = EndReason::kError;
      return;
    }
  }
  // io_uring holds the files it registered, not their descriptors: the engine is opened on the new ones.
  engine_->close();
  engine_->open(*engine_setup_);
  if (verifier_) verifier_->map().forget_writes();  // the data of the earlier loops is gone
  std::fill(sync_.file_written.begin(), sync_.file_written.end(), false);
  now_ = clock_.now();
}

void IoLoop::think(std::uint64_t busy_ns) {
  const std::uint64_t start = clock_.now();
  const PacingOptions& pacing = think_->pacing;
  clock_.spin_until(start + static_cast<std::uint64_t>(pacing.thinktime_spin.count()));
  const auto for_busy = static_cast<std::uint64_t>(static_cast<double>(busy_ns) * pacing.think_per_busy);
  const std::uint64_t think_ns = std::max(static_cast<std::uint64_t>(pacing.thinktime.count()), for_busy);
  // A think time that would outlast the job ends with it (cpuio at a low cpuload thinks for seconds).
  sleep_until(std::min(start + think_ns, window_.end_ns));
  now_ = clock_.now();
  if (pacing.rate_ignore_thinktime && source_.schedule.limited()) {
    source_.schedule.postpone(now_ - start);
    if (source_.has_pending && source_.pending_arrival_ns != 0) source_.pending_arrival_ns += now_ - start;
  }
}

void IoLoop::drop_cached(int file_index) noexcept {
  const TargetFile& t = targets_[static_cast<std::size_t>(file_index)];
  if (t.fd < 0 || t.stand_in) return;
  (void)::posix_fadvise(t.fd, static_cast<off_t>(t.region_start), static_cast<off_t>(t.region_length),
                        POSIX_FADV_DONTNEED);
}

// The lat histogram of a direction as recorded so far (clat stands in for lat with synchronous engines).
const LatencyHistogram& IoLoop::lat_histogram(Direction d) const noexcept {
  const DirectionStats& stats = result_->dirs[index_of(d)];
  return acct_.record_lat ? stats.lat.histogram : stats.clat.histogram;
}

// p99 of the ios completed in the interval: the difference of the job's histogram now and at the interval's
// start. Costs one pass over the buckets per interval instead of a second histogram record per io.
void IoLoop::close_intervals(std::uint64_t now) {
  while (now >= acct_.next_interval_ns) {
    for (Direction d : kAllDirections) {
      IntervalSample& sample = acct_.interval[index_of(d)];
      if (sample.ops == 0) continue;
      const LatencyHistogram& current = lat_histogram(d);
      LatencyHistogram& before = acct_.interval_start[index_of(d)];
      const auto rank = static_cast<std::uint64_t>(std::ceil(0.99 * static_cast<double>(sample.ops)));
      std::uint64_t seen = 0;
      for (int b = 0; b < LatencyHistogram::kNumBuckets; ++b) {
        seen += current.count_at(b) - before.count_at(b);
        if (seen >= std::max<std::uint64_t>(rank, 1)) {
          sample.lat_p99_ns = LatencyHistogram::bucket_value(b);
          break;
        }
      }
      before = current;
    }
    result_->series.append(acct_.interval);
    acct_.interval = {};
    acct_.next_interval_ns += acct_.series_interval_ns;
  }
}

// The series interval came due.
void IoLoop::on_tick(std::uint64_t now) {
  if (now >= acct_.next_interval_ns) close_intervals(now);
  acct_.next_tick_ns = acct_.next_interval_ns;
}

// The reporting thread asked for the result so far (run/result_snapshot.h); only while measuring (a job in its
// ramp shows no I/O yet, and the runner does not wait for it).
bool IoLoop::snapshot_requested() const noexcept {
  return acct_.snapshot_interval_ns != 0 && window_.measuring && live_->snapshot.requested();
}

void IoLoop::sleep_until(std::uint64_t deadline_ns) {
  for (;;) {
    clock_.sleep_until(deadline_ns, [this] { return interrupted() || snapshot_requested(); });
    if (!snapshot_requested()) return;
    publish_snapshot(clock_.now());  // answered at once: a sleeping worker completes no io meanwhile
  }
}

// A copy of the result as the report would show it had the job ended now: runtime up to now, lat standing
// in for clat where it is not recorded, the CPU used so far. Once per report (on request), never per io.
void IoLoop::publish_snapshot(std::uint64_t now) {
  JobResult copy = *result_;
  copy.end_ns = now;
  copy.runtime_ns = now - result_->start_ns;
  if (!acct_.record_lat) {
    for (DirectionStats& stats : copy.dirs) stats.lat = stats.clat;
  }
  copy.cpu = CpuSnapshot::of_this_thread() - acct_.cpu_at_start;
  live_->snapshot.publish(std::move(copy));
}

// At the end, writes still due (their transactions unfinished, never issued) give their units back, so
// end_fsync finds a free one.
void IoLoop::release_rmw_units() {
  std::uint32_t chain = 0;
  NextIo write;
  while (source_.rmw && source_.rmw->take_write(chain, write)) pool_.put(pool_.unit(chain));
}

// Waits for every io in flight; account: complete them as usual, else just take their units back.
void IoLoop::drain(bool account) {
  while (queue_.in_flight > 0) {
    const int n = engine_->reap(queue_.in_flight, std::span<IoUnit*>(queue_.completions.data(), queue_.in_flight));
    const std::uint64_t now = clock_.now();
    if (n <= 0) break;
    for (int i = 0; i < n; ++i) {
      IoUnit& unit = *queue_.completions[static_cast<std::size_t>(i)];
      if (account) {
        complete(unit, now);
      } else {
        --queue_.in_flight;
        pool_.put(unit);
      }
    }
  }
}

void IoLoop::end_fsync() {
  for (std::size_t i = 0; i < targets_.size(); ++i) {
    if (sync_.file_written[i]) issue_sync(IoOp::kFsync, static_cast<int>(i));
  }
}

// end_syncfs (fio 3.42): when the job wrote, one syncfs per file system of its files instead of end_fsync's
// fsyncs. As fio's, it goes around the engine and the sync statistics (fio counts none of its end syncs);
// unlike fio, which logs a failure and goes on, a failure is the job's error.
void IoLoop::end_syncfs() {
  if (std::none_of(sync_.file_written.begin(), sync_.file_written.end(), [](bool w) { return w; })) return;
  std::vector<std::string> paths;
  for (const TargetFile& t : targets_) {
    if (!t.stand_in && !t.is_block_device) paths.push_back(t.path);
  }
  const SyncfsOutcome outcome = sync_filesystems(paths);
  if (outcome.error != 0 && result_->error == 0) {
    result_->error = outcome.error;
    result_->error_message = outcome.failure;
  }
}

void IoLoop::finish(std::uint64_t now) {
  // Ios still in flight at the end complete and count, at a time-based end or a stop too: fio's do_io reaps
  // them with io_u_queued_complete into its statistics. After an error their units are only taken back.
  drain(end_reason_ != EndReason::kError);
  // The sync that fsync=N (fdatasync, sync_file_range, a replayed log) made due before a time-based end is
  // still issued: fio's loop issues it ahead of its next runtime check (measured: writes == syncs in 8 of 8
  // runs of 300 ms with fsync=1), so every write of such a job is followed by its sync. Ending between them
  // lost the last one about once in ten runs.
  if (end_reason_ == EndReason::kTime && phases_.due(Phase::kSync)) issue_sync(sync_.due_op, sync_.due_file);
  release_rmw_units();
  now = std::max(now, clock_.now());
  // A time-based end's window runs until the last io that counts completed, past the runtime when ios were in
  // flight at the end: fio's runtime includes that drain too (measured: 2 s of depth 32 on the lab's sata7k,
  // 2344 ms). Ending it at the runtime would count those ios in too short a window (+18% IOPS there).
  if (end_reason_ == EndReason::kTime) now = std::min(now, std::max(window_.end_ns, window_.last_counted_ns));
  if (!window_.measuring) begin_measuring(now);  // ended during ramp: an empty measured window
  if (sync_.durability.end_syncfs && end_reason_ != EndReason::kError) {
    end_syncfs();  // fio: end_syncfs takes the place of end_fsync when both are given
  } else if (sync_.durability.end_fsync && !sync_.end_fsync_done && end_reason_ != EndReason::kError) {
    end_fsync();
  }
  close_intervals(now);
  result_->end_ns = now;
  result_->runtime_ns = now - result_->start_ns;
  if (!acct_.record_lat) {
    for (DirectionStats& stats : result_->dirs) stats.lat = stats.clat;
  }
  if (logs_) logs_->finish(result_->runtime_ns);
  if (iolog_writer_) {
    const std::string failed = iolog_writer_->close(clock_.now());
    if (!failed.empty() && result_->error == 0) {
      result_->error = EIO;
      result_->error_message = failed;
    }
  }
  if (hooks_) hooks_->finish(now, *result_);
  result_->counts_zone_resets = zones_.options.zone_zbd;
  result_->zone_resets = zones_.resets;
  result_->block_infos = acct_.block_infos;
  if (latency_) {  // fio's JSON keys; latency_window in microseconds, as fio keeps it
    result_->latency_target = {{"latency_depth", latency_->depth()},
                               {"latency_target", job_.latency.latency_target.count()},
                               {"latency_percentile", job_.latency.latency_percentile},
                               {"latency_window", job_.latency.latency_window.count() / 1000}};
  }
  if (!queue_.does_io) engine_->close();  // exec: its program is stopped when the job ends, not with the group
  result_->interrupted = end_reason_ == EndReason::kStop;
  result_->cpu = CpuSnapshot::of_this_thread() - acct_.cpu_at_start;
  if (acct_.snapshot_interval_ns != 0) live_->snapshot.publish(*result_);  // the job's last word until it is joined
  live_->snapshot.close();
  live_->finished.store(true, std::memory_order_relaxed);
}

}  // namespace sluice
