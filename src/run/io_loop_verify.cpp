// IoLoop's part of data verification: the verify phase after the writes, the backlog during them, and the
// replay of a verify_only job. The checks themselves are Verifier's (verifier.h); these functions only move
// reads through the engine with the loop's own submit and reap, so verify reads are counted as reads (fio
// counts them too).
#include <unistd.h>

#include <cstdio>

#include "common/stop_signal.h"
#include "run/io_loop.h"
#include "run/verify_state.h"

namespace sluice {

void IoLoop::start_verify_only() {
  // The pattern is the same as in the run that wrote (same options and randseed): replaying its writes gives
  // every chunk the generation that run gave it. With verify_state_load, only the writes that run issued are
  // replayed, and those that did not complete are not checked (their blocks may hold either version).
  std::optional<VerifyState> state;
  if (job_.verification.verify_state_load) {
    const std::string& dir = job_.verification.verify_state_load_dir.empty() ? job_.verification.aux_path
                                                                             : job_.verification.verify_state_load_dir;
    state = load_verify_state(verify_state_path(dir, job_.name, job_.lognum), job_.name);
  }
  VerifyMap& map = verifier_->map();
  std::size_t next_incomplete = 0;
  NextIo io;
  for (std::uint64_t write = 0; source_.pattern.next(io);) {
    if (io.direction != Direction::kWrite) continue;
    if (state && write == state->writes_issued) break;
    map.begin_write(io.file_index, io.offset, io.length, [](auto, auto) {});
    if (state && next_incomplete < state->incomplete.size() && state->incomplete[next_incomplete] == write) {
      map.skip(io.file_index, io.offset, io.length);
      ++next_incomplete;
    }
    // verify_policy=fsynced: a write after the last completed sync's submission may be lost; fio stops its replay
    // there, sluice replays on so that a block such a write overwrote is not checked for its older data.
    if (state && state->fsynced_writes && write >= *state->fsynced_writes) {
      map.skip(io.file_index, io.offset, io.length);
    }
    ++write;
  }
  source_.pattern_done = true;
  end_reason_ = EndReason::kPatternDone;
}

void IoLoop::run_verify_rounds() {
  VerifyMap& map = verifier_->map();
  if (map.backlog_due()) run_verify_ios(VerifyRound::kBacklog);  // fio checks the verify backlog first
  if (map.trim_due() && end_reason_ == EndReason::kNone) run_verify_ios(VerifyRound::kTrims);
}

void IoLoop::run_verify_ios(VerifyRound round) {
  drain(true);  // writes still in flight must land before their chunks are read back or trimmed
  VerifyMap& map = verifier_->map();
  if (round == VerifyRound::kBacklog) map.start_backlog_round();
  if (round == VerifyRound::kTrims) map.start_trim_round();
  if (round == VerifyRound::kAllTrims) map.trim_all_waiting();
  const bool trims = round == VerifyRound::kTrims || round == VerifyRound::kAllTrims;
  const std::uint32_t chunk = map.chunk();
  const std::uint32_t max_length = std::max(pool_.buffer_stride() / chunk, 1u) * chunk;
  bool more = true;
  while (end_reason_ != EndReason::kError) {
    if (snapshot_requested()) publish_snapshot(clock_.now());  // a periodic report during the verify phase
    if (stop_requested()) {
      end_reason_ = EndReason::kStop;
      break;
    }
    NextIo io;
    while (more && pool_.has_free()) {
      switch (round) {
        case VerifyRound::kBacklog:
          more = map.next_backlog_read(io, max_length);
          break;
        case VerifyRound::kPhase:
          more = map.next_phase_read(io, max_length);
          break;
        case VerifyRound::kTrims:
        case VerifyRound::kAllTrims:
          more = map.next_trim(io);
          break;
      }
      if (!more) break;
      IoUnit& unit = take_free_unit(trims ? IoOp::kTrim : IoOp::kRead, io);
      log_issue(unit);
      if (!trims) verifier_->mark_verify_read(unit);
      queue_.batch.push_back(&unit);
    }
    if (!queue_.batch.empty()) submit_batch();
    if (!more && queue_.in_flight == 0) break;
    if (queue_.in_flight > 0) reap(1);
  }
  drain(true);
}

void IoLoop::finish_verify() {
  // The ios still in flight land and count first (as in finish), so the state saved below says completed
  // exactly the writes counted, and the verify phase reads back the last writes too.
  drain(end_reason_ != EndReason::kError);
  // verify_policy=fsynced: end_fsync covers the writes before the verify phase and the saved state, as in fio,
  // whose io loop ends with it.
  if (job_.verification.verify_policy == VerifyPolicy::kFsynced && sync_.durability.end_fsync &&
      !sync_.durability.end_syncfs && end_reason_ != EndReason::kError) {
    end_fsync();
    sync_.end_fsync_done = true;
  }
  const bool wrote =
      end_reason_ == EndReason::kPatternDone || (end_reason_ == EndReason::kTime && !window_.time.time_based);
  if (job_.does_writes && wrote && (job_.verification.do_verify || job_.verification.verify_only) &&
      !window_.time.time_based) {
    window_.verify_phase = true;
    // fio syncs and drops each file's cache first, so the phase reads back what reached the storage.
    if (source_.drops_cache) {
      for (std::size_t i = 0; i < targets_.size(); ++i) {
        if (!sync_.file_written[i] || targets_[i].fd < 0) continue;
        (void)::fsync(targets_[i].fd);
        drop_cached(static_cast<int>(i));
      }
    }
    // The drawn writes no trim round reached are trimmed now (fio leaves them untrimmed and says "trim
    // entries leaked"), so trim_percentage of the writes are trimmed and checked.
    verifier_->skip_unsynced_writes();  // verify_policy=fsynced: only what a completed sync covers
    if (job_.trims_written_blocks) run_verify_ios(VerifyRound::kAllTrims);
    run_verify_ios(VerifyRound::kPhase);
  }
  verifier_->finish(*result_);
  if (job_.verification.verify_state_save && job_.does_writes && !job_.verification.verify_only) {
    try {
      save_verify_state(verify_state_file(), verifier_->state());
    } catch (const UserError& e) {  // as fio: said on stderr, the job's result stands
      std::fprintf(stderr, "sluice: job %s: %s\n", job_.name.c_str(), e.what());
    }
  }
  now_ = clock_.now();
}

std::string IoLoop::verify_state_file() const {
  return verify_state_path(job_.verification.aux_path, job_.name, job_.lognum);  // fio: thread_number - 1
}

}  // namespace sluice
