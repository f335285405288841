#include "method/interfere_conclude.h"

#include <algorithm>

namespace sluice {
namespace {

const PhaseResult* phase_named(const InterfereReport& r, const std::string& name, std::uint32_t threads) {
  for (const PhaseResult& p : r.phases) {
    if (p.name == name && p.threads == threads) return &p;
  }
  return nullptr;
}

void judge_flood(const InterfereReport& r, PhaseResult& p) {
  if (!p.has_flood) return;
  FloodInput in;
  in.limits = p.limits;
  for (const TimelinePoint& t : p.timeline) in.samples.push_back(t.wb);
  in.writer_bps = p.bg_bw_bytes;
  in.writer_alone_bps = r.probe_bps;
  in.writers = r.bg_writers;
  in.writer_bs = r.options.bg_bs;
  in.background_bytes = r.options.bg_size;
  in.sizing = r.sizing;
  in.free_bytes = r.free_bytes;
  in.phase_seconds = p.seconds;
  in.device_known = !r.device.empty();
  p.flood = verify_flood(in);
}

ExplainInput explain_input(const InterfereReport& r, double phase_seconds) {
  ExplainInput in;
  in.limits = r.limits;
  in.vm = r.vm;
  in.phase_seconds = phase_seconds;
  for (const PhaseResult& p : r.phases) {
    in.device_write_bps = std::max(in.device_write_bps, p.device_write_bps);
    if (p.name != "loaded") continue;
    in.background_bps = std::max(in.background_bps, p.bg_bw_bytes);
    in.peak_dirty_bytes = std::max(in.peak_dirty_bytes, p.peak_dirty);
    in.peak_writeback_bytes = std::max(in.peak_writeback_bytes, p.peak_writeback);
    std::vector<double> times;
    std::vector<std::uint64_t> dirty;
    for (const TimelinePoint& point : p.timeline) {
      times.push_back(point.t_s);
      dirty.push_back(point.wb.dirty_bytes);
    }
    const DirtyPlateau plateau = find_dirty_plateau(times, dirty);
    if (plateau.start_s >= 0 && in.plateau_start_s < 0) {
      in.plateau_start_s = plateau.start_s;
      in.plateau_bytes = plateau.bytes;
    }
    const PhaseResult* idle = phase_named(r, "idle", p.threads);
    if (idle && p.iops > 0) in.slowdown = std::max(in.slowdown, idle->iops / p.iops);
  }
  return in;
}

Observed observed_of(const InterfereReport& r, double phase_seconds) {
  Observed o;
  o.phase_seconds = phase_seconds;
  o.queue = r.queue;
  o.limits = r.limits;
  o.filesystem = r.filesystem;
  o.mount_options = r.mount_options;
  bool any_loaded = false, all_flooded = true;
  for (const PhaseResult& p : r.phases) {
    if (p.name != "loaded") continue;
    any_loaded = true;
    all_flooded = all_flooded && p.flood.reached;
    o.seconds_at_limit = std::max(o.seconds_at_limit, p.flood.seconds_at_limit);
    o.peak_writeback_bytes = std::max(o.peak_writeback_bytes, p.peak_writeback);
    o.peak_device_queue = std::max(o.peak_device_queue, p.peak_device_queue);
    o.writer_bps = std::max(o.writer_bps, p.flood.writer_bps);
    o.device_bps = std::max(o.device_bps, p.flood.device_bps);
    const PhaseResult* idle = phase_named(r, "idle", p.threads);
    if (!idle || idle->iops <= 0) continue;
    if (p.iops <= 0)
      o.starved = true;
    else
      o.slowdown = std::max(o.slowdown, idle->iops / p.iops);
  }
  o.flooded = any_loaded && all_flooded;
  return o;
}

std::vector<TrialRun> trial_runs(const InterfereReport& r) {
  std::vector<TrialRun> runs;
  for (const TrialResult& t : r.trials) {
    const PhaseResult* base = phase_named(r, "loaded", t.threads);
    if (!t.ran || !t.skipped_reason.empty() || !base) continue;
    TrialRun run;
    run.settings = t.settings;
    run.threads = t.threads;
    run.base_iops = base->iops;
    run.trial_iops = t.phase.iops;
    run.base_fsync_p99_ns = base->fsync_lat.p99_ns;
    run.trial_fsync_p99_ns = t.phase.fsync_lat.p99_ns;
    run.base_bg_bps = base->bg_bw_bytes;
    run.trial_bg_bps = t.phase.bg_bw_bytes;
    runs.push_back(run);
  }
  return runs;
}

}  // namespace

void conclude_interfere(InterfereReport& report, std::chrono::nanoseconds phase_length) {
  const double seconds = std::chrono::duration<double>(phase_length).count();
  for (PhaseResult& p : report.phases) judge_flood(report, p);
  for (TrialResult& t : report.trials) {
    if (t.ran && t.skipped_reason.empty()) judge_flood(report, t.phase);
  }
  report.explanation = explain(explain_input(report, seconds));
  std::vector<std::string> tried;
  for (const TrialResult& t : report.trials) tried.push_back(trial_text(t.settings));
  report.advice = advise(observed_of(report, seconds), trial_runs(report), tried);
}

}  // namespace sluice
