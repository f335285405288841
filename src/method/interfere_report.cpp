// Text and JSON of `sluice interfere`.
#include <fmt/format.h>

#include <algorithm>

#include "method/interfere.h"
#include "report/reporters.h"

namespace sluice {
namespace {

std::string ms_figure(double ns) { return fmt::format("{:.2f}", ns / 1e6); }

const PhaseResult* find_phase(const InterfereReport& r, const std::string& name, std::uint32_t threads) {
  for (const PhaseResult& p : r.phases) {
    if (p.name == name && p.threads == threads) return &p;
  }
  return nullptr;
}

std::string settings_text(const std::vector<KnobSetting>& settings) { return trial_text(settings); }

std::string bs_text(std::uint64_t bs) {
  if (bs >= (1u << 20) && bs % (1u << 20) == 0) return fmt::format("{} MiB", bs >> 20);
  if (bs >= 1024 && bs % 1024 == 0) return fmt::format("{} KiB", bs >> 10);
  return fmt::format("{} B", bs);
}

const char* sizing_name(BackgroundSizing s) {
  switch (s) {
    case BackgroundSizing::kCappedBySpace:
      return "free_space";
    case BackgroundSizing::kUserSize:
      return "bg_size";
    case BackgroundSizing::kFromLimit:
      break;
  }
  return "dirty_limit";
}

std::string sizing_text(const InterfereReport& r) {
  switch (r.sizing) {
    case BackgroundSizing::kCappedBySpace:
      return fmt::format(", capped by free space: {} MiB free", r.free_bytes >> 20);
    case BackgroundSizing::kUserSize:
      return ", --bg-size";
    case BackgroundSizing::kFromLimit:
      break;
  }
  return ", 1.25 x the dirty limit";
}

std::string writers_text(const InterfereReport& r) {
  std::string how = r.options.bg_writers ? "--bg-writers" : "auto";
  if (!r.options.bg_writers && r.probe_bps > 0) {
    how += fmt::format(": one writer measured {:.0f} MiB/s", r.probe_bps / 1048576.0);
  }
  return fmt::format("{} writer{} ({})", r.bg_writers, r.bg_writers == 1 ? "" : "s", how);
}

// Each loaded phase's and trial's flood verdict, one line each.
std::string flood_section(const InterfereReport& r) {
  std::string out = "\nFlood (did the background writer reach the dirty limit?):\n";
  for (const PhaseResult& p : r.phases) {
    if (p.has_flood) out += fmt::format(" {} thread(s) loaded: {}\n", p.threads, p.flood.text);
  }
  for (const TrialResult& t : r.trials) {
    if (t.ran && t.skipped_reason.empty() && t.phase.has_flood) {
      out += fmt::format(" {} thread(s) {}: {}\n", t.threads, settings_text(t.settings), t.phase.flood.text);
    }
  }
  return out;
}

// The loaded phases' verdicts together: verified when every loaded phase reached the limit.
nlohmann::json flood_summary_json(const InterfereReport& r) {
  bool any = false, all = true;
  std::string message;
  for (const PhaseResult& p : r.phases) {
    if (p.name != "loaded") continue;
    any = true;
    if (!p.flood.reached && message.empty()) message = p.flood.text;
    all = all && p.flood.reached;
  }
  if (!any)
    message = "no loaded phase ran";
  else if (all)
    message = "the background writer reached the dirty limit in every loaded phase";
  return {{"verified", any && all}, {"message", message}};
}

nlohmann::json lat_json(const LatencySummary& s) {
  return {{"mean", s.mean_ns}, {"p95", s.p95_ns}, {"p99", s.p99_ns}, {"max", s.max_ns}};
}

// A phase in which no foreground write completed: its latency is censored (at least the phase's length), not 0.
bool starved(const PhaseResult& p) { return p.iops <= 0 && p.seconds > 0; }

std::string starved_text(const PhaseResult& p) {
  return fmt::format("starved: no write completed in {:.0f} s (latency >= {:.0f} s)", p.seconds, p.seconds);
}

// The knobs the trials changed, each once: the trials of every thread count change the same knobs.
std::string knob_changes_text(const std::vector<TrialResult>& trials) {
  struct Seen {
    const KnobChange* first;
    int times = 0;
    bool all_restored = true;
  };
  std::vector<std::pair<std::string, Seen>> seen;  // in the order first changed
  std::string failures;
  for (const TrialResult& t : trials) {
    for (const KnobChange& c : t.changes) {
      const std::string key = c.knob + "\n" + c.device + "\n" + c.applied;
      auto it = std::find_if(seen.begin(), seen.end(), [&key](const auto& e) { return e.first == key; });
      if (it == seen.end()) it = seen.insert(seen.end(), {key, Seen{&c}});
      it->second.times++;
      it->second.all_restored = it->second.all_restored && c.restored;
    }
    for (const std::string& f : t.restore_failures) failures += "  restore failed: " + f + "\n";
  }
  std::string out;
  for (const auto& [key, e] : seen) {
    const KnobChange& c = *e.first;
    const std::string values = c.original == c.applied
                                   ? c.original + " (journalled around a scheduler switch, which resets it)"
                                   : c.original + " -> " + c.applied;
    out += fmt::format("  {}{}: {} -> {}{}\n", c.knob, c.device.empty() ? "" : " (" + c.device + ")", values,
                       e.all_restored ? "restored" : "NOT RESTORED (run sluice restore)",
                       e.times > 1 ? fmt::format(" (in {} trials, each restored after it)", e.times) : "");
  }
  return out + failures;
}

void append_timeline(std::string& out, const PhaseResult& p) {
  out += fmt::format("  timeline, {} threads {} (per second):\n", p.threads, p.name);
  out += "      t_s   fg_iops  fg_p99_ms  dirty_MiB  writeback_MiB  util_%  in_flight  queue\n";
  for (const TimelinePoint& t : p.timeline) {
    out += fmt::format(
        "  {:7.1f} {:9.0f} {:10} {:10.1f} {:14.1f} {:7.1f} {:10} {:6.1f}\n", t.t_s, t.fg_iops,
        ms_figure(static_cast<double>(t.fg_lat_p99_ns)), static_cast<double>(t.wb.dirty_bytes) / 1048576.0,
        static_cast<double>(t.wb.writeback_bytes) / 1048576.0, t.wb.dev_util, t.wb.dev_in_flight, t.wb.dev_queue);
  }
}

}  // namespace

std::string render_interfere_text(const InterfereReport& r) {
  const InterfereOptions& o = r.options;
  std::string out;
  out += fmt::format(
      "sluice interfere: foreground {} KiB random writes, fsync after every {} write(s), psync, on {} "
      "({} MiB); background: buffered sequential writes of zeros, {} blocks, {}, to {}{} ({} MiB in "
      "all{}); device {}\n",
      o.fg_bs / 1024, o.fg_fsync, o.filename, o.size >> 20, bs_text(o.bg_bs), writers_text(r), r.bg_file,
      r.bg_files.size() > 1 ? fmt::format(" and {} more", r.bg_files.size() - 1) : "", o.bg_size >> 20, sizing_text(r),
      r.device.empty() ? "unknown" : r.device);
  if (!r.base_changes.empty()) {
    std::string set;
    for (const KnobChange& c : r.base_changes) {
      set += fmt::format("{}{}={} (was {})", set.empty() ? "" : ", ", c.knob, c.applied, c.original);
    }
    out += fmt::format("every phase ran with (--set): {}; {}\n", set,
                       r.base_changes.front().restored ? "restored after" : "NOT all restored: run sluice restore");
  }
  out += "\n threads  phase     IOPS   write mean/p95/p99/max ms        fsync mean/p95/p99/max ms        bg MiB/s\n";
  for (const PhaseResult& p : r.phases) {
    if (starved(p)) {
      out += fmt::format(" {:7}  {:6} {:8.1f}   {:68}   {:8.1f}\n", p.threads, p.name, 0.0, starved_text(p),
                         p.bg_bw_bytes / 1048576.0);
      continue;
    }
    out += fmt::format(" {:7}  {:6} {:8.1f}   {:>6}/{:>6}/{:>7}/{:>8}   {:>6}/{:>6}/{:>7}/{:>8}   {:8.1f}\n", p.threads,
                       p.name, p.iops, ms_figure(p.lat.mean_ns), ms_figure(double(p.lat.p95_ns)),
                       ms_figure(double(p.lat.p99_ns)), ms_figure(double(p.lat.max_ns)), ms_figure(p.fsync_lat.mean_ns),
                       ms_figure(double(p.fsync_lat.p95_ns)), ms_figure(double(p.fsync_lat.p99_ns)),
                       ms_figure(double(p.fsync_lat.max_ns)), p.bg_bw_bytes / 1048576.0);
  }
  out += "\n";
  for (std::uint32_t threads : o.threads) {
    const PhaseResult* idle = find_phase(r, "idle", threads);
    const PhaseResult* loaded = find_phase(r, "loaded", threads);
    if (!idle || !loaded || idle->iops <= 0) continue;
    if (starved(*loaded)) {
      // Fewer than one write in the phase: the IOPS were below 1/seconds, the slowdown at least idle x seconds.
      out += fmt::format(" {} thread(s): slowdown >= {:.0f}x (IOPS {:.1f} -> 0: no write completed in {:.0f} s)\n",
                         threads, idle->iops * loaded->seconds, idle->iops, loaded->seconds);
      continue;
    }
    out += fmt::format(" {} thread(s): slowdown {:.2f}x (IOPS {:.1f} -> {:.1f}; fsync p99 {} -> {} ms)\n", threads,
                       idle->iops / loaded->iops, idle->iops, loaded->iops, ms_figure(double(idle->fsync_lat.p99_ns)),
                       ms_figure(double(loaded->fsync_lat.p99_ns)));
  }
  if (!r.trials.empty()) {
    out += "\n trial                                      threads  fg IOPS (vs baseline)  fg fsync p99 ms  bg MiB/s\n";
    for (const TrialResult& t : r.trials) {
      const PhaseResult* base = find_phase(r, "loaded", t.threads);
      if (!t.ran || !t.skipped_reason.empty()) {
        out += fmt::format(" {:42} {:7}  not run: {}\n", settings_text(t.settings), t.threads, t.skipped_reason);
        continue;
      }
      if (starved(t.phase)) {
        out += fmt::format(" {:42} {:7}  {}\n", settings_text(t.settings), t.threads, starved_text(t.phase));
        continue;
      }
      if (!base || base->iops <= 0) {
        out += fmt::format(" {:42} {:7}  {:9.1f} (the baseline was starved)  {:>14}  {:8.1f}\n",
                           settings_text(t.settings), t.threads, t.phase.iops,
                           ms_figure(double(t.phase.fsync_lat.p99_ns)), t.phase.bg_bw_bytes / 1048576.0);
        continue;
      }
      const double ratio = t.phase.iops / base->iops;
      out += fmt::format(" {:42} {:7}  {:9.1f} ({:5.2f}x)     {:>14}  {:8.1f}\n", settings_text(t.settings), t.threads,
                         t.phase.iops, ratio, ms_figure(double(t.phase.fsync_lat.p99_ns)),
                         t.phase.bg_bw_bytes / 1048576.0);
    }
    out += "\n knobs changed and restored:\n" + knob_changes_text(r.trials);
  }
  out += flood_section(r);
  out += "\n";
  for (const PhaseResult& p : r.phases) append_timeline(out, p);
  out += "\nWhy:\n" + r.explanation.text + r.advice.mechanism;
  out += "\nWhat to do:\n" + r.advice.recommendation;
  if (r.interrupted) out += "sluice: interrupted; the report covers the phases measured before the stop\n";
  return out;
}

nlohmann::json interference_json(const InterfereReport& r) {
  const InterfereOptions& o = r.options;
  nlohmann::json j;
  j["foreground"] = {{"file", o.filename},  {"size", o.size},      {"rw", "randwrite"},   {"bs", o.fg_bs},
                     {"fsync", o.fg_fsync}, {"ioengine", "psync"}, {"threads", o.threads}};
  double bg_bw = 0;
  for (const PhaseResult& p : r.phases) bg_bw = std::max(bg_bw, p.bg_bw_bytes);
  j["background"] = {{"file", r.bg_file},
                     {"files", r.bg_files},
                     {"writers", r.bg_writers},
                     {"writers_chosen", o.bg_writers ? "bg_writers" : "auto"},
                     {"probe_writer_bytes_per_s", r.probe_bps},
                     {"size", o.bg_size},
                     {"sized_by", sizing_name(r.sizing)},
                     {"free_bytes", r.free_bytes},
                     {"rw", "write"},
                     {"bs", o.bg_bs},
                     {"buffers", "zero"},
                     {"ioengine", "psync"},
                     {"bw_bytes", bg_bw}};
  j["queue"] = {{"scheduler", r.queue.scheduler},
                {"schedulers", r.queue.schedulers},
                {"wbt_lat_usec", r.queue.wbt_lat_usec},
                {"nr_requests", r.queue.nr_requests}};
  j["flood"] = flood_summary_json(r);
  j["device"] = r.device;
  nlohmann::json phases = nlohmann::json::array();
  nlohmann::json timeline = nlohmann::json::array();
  for (const PhaseResult& p : r.phases) {
    nlohmann::json phase = {{"name", p.name},
                            {"threads", p.threads},
                            {"seconds", p.seconds},
                            {"iops", p.iops},
                            {"lat_ns", lat_json(p.lat)},
                            {"fsync_lat_ns", lat_json(p.fsync_lat)},
                            {"bg_bw_bytes", p.bg_bw_bytes},
                            {"device_write_bytes_per_s", p.device_write_bps},
                            {"starved", starved(p)}};
    if (p.has_flood) phase["flood"] = flood_json(p.flood);
    if (starved(p)) {
      // No write completed: the latencies are censored, at least the phase's length (never 0).
      phase["lat_ns"] = nullptr;
      phase["fsync_lat_ns"] = nullptr;
      phase["latency_at_least_ns"] = p.seconds * 1e9;
    }
    phases.push_back(phase);
    for (const TimelinePoint& t : p.timeline) {
      timeline.push_back({{"phase", p.name},
                          {"threads", p.threads},
                          {"t_s", t.t_s},
                          {"fg_iops", t.fg_iops},
                          {"fg_lat_p99_ns", t.fg_lat_p99_ns},
                          {"dirty_bytes", t.wb.dirty_bytes},
                          {"writeback_bytes", t.wb.writeback_bytes},
                          {"dev_util", t.wb.dev_util},
                          {"dev_in_flight", t.wb.dev_in_flight},
                          {"dev_queue", t.wb.dev_queue}});
    }
  }
  j["phases"] = phases;
  nlohmann::json trials = nlohmann::json::array();
  for (const PhaseResult& p : r.phases) {
    if (p.name != "loaded") continue;
    trials.push_back({{"settings", nlohmann::json::object()},
                      {"baseline", true},
                      {"threads", p.threads},
                      {"fg_iops", p.iops},
                      {"fg_lat_p99_ns", p.fsync_lat.p99_ns},
                      {"fg_write_lat_p99_ns", p.lat.p99_ns},
                      {"bg_bw_bytes", p.bg_bw_bytes}});
  }
  nlohmann::json changes = nlohmann::json::array();
  for (const TrialResult& t : r.trials) {
    nlohmann::json settings = nlohmann::json::object();
    for (const auto& [k, v] : t.settings) settings[k] = v;
    nlohmann::json entry = {{"settings", settings},
                            {"baseline", false},
                            {"threads", t.threads},
                            {"ran", t.ran && t.skipped_reason.empty()}};
    if (!t.skipped_reason.empty()) entry["skipped"] = t.skipped_reason;
    if (t.ran && t.skipped_reason.empty()) {
      entry["starved"] = starved(t.phase);
      if (starved(t.phase)) entry["latency_at_least_ns"] = t.phase.seconds * 1e9;
      entry["fg_iops"] = t.phase.iops;
      // A starved trial's p99 is censored (latency_at_least_ns), not 0.
      entry["fg_lat_p99_ns"] = starved(t.phase) ? nlohmann::json(nullptr) : nlohmann::json(t.phase.fsync_lat.p99_ns);
      entry["fg_write_lat_p99_ns"] = starved(t.phase) ? nlohmann::json(nullptr) : nlohmann::json(t.phase.lat.p99_ns);
      entry["bg_bw_bytes"] = t.phase.bg_bw_bytes;
      if (t.phase.has_flood) entry["flood"] = flood_json(t.phase.flood);
    }
    trials.push_back(entry);
    for (const KnobChange& c : t.changes) {
      changes.push_back({{"knob", c.knob},
                         {"device", c.device},
                         {"path", c.path},
                         {"original", c.original},
                         {"applied", c.applied},
                         {"restored", c.restored}});
    }
  }
  j["trials"] = trials;
  j["timeline"] = timeline;
  j["knob_changes"] = changes;
  nlohmann::json base = nlohmann::json::array();
  for (const KnobChange& c : r.base_changes) {
    base.push_back({{"knob", c.knob},
                    {"device", c.device},
                    {"path", c.path},
                    {"original", c.original},
                    {"applied", c.applied},
                    {"restored", c.restored}});
  }
  j["base"] = base;
  j["knobs_restored"] = r.knobs_restored;
  j["dirty_limits"] = {{"dirtyable_bytes", r.limits.dirtyable_bytes},
                       {"limit_bytes", r.limits.limit_bytes},
                       {"background_bytes", r.limits.background_bytes},
                       {"limit_seconds", r.explanation.limit_seconds},
                       {"background_seconds", r.explanation.background_seconds},
                       {"formula",
                        "dirtyable ~= MemFree + Active(file) + Inactive(file); limit = dirty_bytes or "
                        "dirty_ratio% of dirtyable; background likewise, halved limit when not below it"}};
  j["explanation"] = r.explanation.text + r.advice.mechanism;
  j["advice"] = advice_json(r.advice);
  j["interrupted"] = r.interrupted;
  return j;
}

std::string render_interfere_json_text(const InterfereReport& r, bool json_plus) {
  RunResult all;
  int groupid = 0;
  for (const PhaseResult& p : r.phases) {
    if (all.version.empty()) {
      all.version = p.run.version;
      all.timestamp_ms = p.run.timestamp_ms;
      all.clock_source = p.run.clock_source;
    }
    for (GroupResult g : p.run.groups) {
      g.groupid = groupid;
      for (JobResult& job : g.jobs) {
        job.groupid = groupid;
        job.name = fmt::format("{}-{}-{}t", job.name, p.name, p.threads);
      }
      all.groups.push_back(std::move(g));
      ++groupid;
    }
  }
  all.interrupted = r.interrupted;
  all.environment = r.environment;
  all.command = "interfere";
  all.extra["interference"] = interference_json(r);
  return render_json_text(all, json_plus);
}

}  // namespace sluice
