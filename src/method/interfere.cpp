#include "method/interfere.h"

#include <fmt/format.h>
#include <sys/statvfs.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>

#include "common/created_files.h"
#include "common/error.h"
#include "common/stop_signal.h"
#include "method/interfere_conclude.h"
#include "method/interfere_phase.h"
#include "method/interfere_writers.h"
#include "observe/disk_stats.h"
#include "observe/environment.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;
constexpr std::uint64_t kBytesPerMiB = 1ull << 20;
constexpr auto kMinPhase = std::chrono::seconds(2);
constexpr std::uint64_t kWriterProbeBytes = 256 * kBytesPerMiB;  // one writer's speed: short, below most thresholds

std::uint64_t free_bytes_at(const std::string& dir) {
  struct statvfs st {};
  if (::statvfs(dir.c_str(), &st) != 0) throw UserError(fmt::format("{}: statvfs: {}", dir, std::strerror(errno)));
  return static_cast<std::uint64_t>(st.f_bavail) * st.f_frsize;
}

// A scheduler switch resets the queue's nr_requests and turns WBT on or off (bfq disables it): the trial
// first "sets" both to their current values, so the session journals and restores them too, newest first.
void pin_scheduler_companions(KnobSession& session, const std::vector<KnobSetting>& settings, const std::string& device,
                              const KnobRoots& roots) {
  const bool switches =
      std::any_of(settings.begin(), settings.end(), [](const KnobSetting& s) { return s.first == "queue.scheduler"; });
  if (!switches) return;
  for (const char* knob : {"queue.wbt_lat_usec", "queue.nr_requests"}) {
    if (!fs::exists(knob_path(knob, device, roots))) continue;
    session.set(knob, read_knob(knob, device, roots), device);
  }
}

// A trial inside the --set session (one journal a process): each knob set through it, then set back to the value
// it had before the trial, newest first; the session restores the originals at the end of the run.
void run_trial_in(KnobSession& session, const InterfereOptions& o, TrialResult& trial, std::chrono::nanoseconds runtime,
                  const BackgroundWriters& bg, const std::string& device) {
  std::vector<KnobSetting> applied;
  const auto apply = [&](const std::string& knob, const std::string& value) {
    const std::string dev = is_queue_knob(knob) ? device : "";
    KnobChange c{knob, dev, knob_path(knob, dev, o.knobs.roots), read_knob(knob, dev, o.knobs.roots), value, false};
    session.set(knob, value, dev);
    trial.changes.push_back(c);
  };
  try {
    const bool switches = std::any_of(trial.settings.begin(), trial.settings.end(),
                                      [](const KnobSetting& s) { return s.first == "queue.scheduler"; });
    for (const char* knob : {"queue.wbt_lat_usec", "queue.nr_requests"}) {
      if (switches && fs::exists(knob_path(knob, device, o.knobs.roots)))
        apply(knob, read_knob(knob, device, o.knobs.roots));
    }
    for (const auto& [knob, value] : trial.settings) apply(knob, value);
    trial.ran = true;
    trial.phase = run_phase(o, "trial", trial.threads, runtime, bg, device);
  } catch (const UserError& e) {
    trial.skipped_reason = e.what();
  }
  for (auto it = trial.changes.rbegin(); it != trial.changes.rend(); ++it) {
    try {
      session.set(it->knob, it->original, it->device);
      it->restored = true;
    } catch (const UserError& e) {
      trial.restore_failures.push_back(e.what());
    }
  }
}

void run_trial(const InterfereOptions& o, TrialResult& trial, std::chrono::nanoseconds runtime,
               const BackgroundWriters& bg, const std::string& device, KnobSession* base) {
  if (base != nullptr) return run_trial_in(*base, o, trial, runtime, bg, device);
  KnobSession session(o.knobs);
  try {
    pin_scheduler_companions(session, trial.settings, device, o.knobs.roots);
    for (const auto& [knob, value] : trial.settings) session.set(knob, value, is_queue_knob(knob) ? device : "");
    trial.ran = true;
    trial.phase = run_phase(o, "trial", trial.threads, runtime, bg, device);
  } catch (const UserError& e) {
    trial.skipped_reason = e.what();
  }
  trial.restore_failures = session.restore_all();
  trial.changes = session.changes();
}

// The writers' files: FILE.sluice-bg, then FILE.sluice-bg.2, ... Refuses to overwrite any that exists.
std::vector<std::string> background_files(const std::string& filename, std::uint32_t writers) {
  std::vector<std::string> files;
  for (std::uint32_t i = 0; i < writers; ++i) {
    files.push_back(filename + ".sluice-bg" + (i == 0 ? "" : "." + std::to_string(i + 1)));
    if (fs::exists(files.back())) {
      throw UserError(
          fmt::format("{} exists; interfere writes its background file there and will not overwrite it", files.back()));
    }
  }
  return files;
}

// Where the report's explanation needs the filesystem: the environment's first target.
void read_filesystem(InterfereReport& report) {
  const auto targets = report.environment.find("targets");
  if (targets == report.environment.end() || !targets->is_array() || targets->empty()) return;
  const nlohmann::json& t = targets->front();
  if (t.contains("filesystem") && t["filesystem"].is_string()) report.filesystem = t["filesystem"];
  if (t.contains("mount_options") && t["mount_options"].is_string()) report.mount_options = t["mount_options"];
}

}  // namespace

std::uint64_t background_wanted(const DirtyLimits& limits) {
  return std::max<std::uint64_t>(limits.limit_bytes + limits.limit_bytes / 4, 64 * kBytesPerMiB);
}

std::uint64_t background_size(const DirtyLimits& limits, std::uint64_t free_bytes, std::uint64_t fg_size) {
  const std::uint64_t want = background_wanted(limits);
  const std::uint64_t margin = std::max<std::uint64_t>(1024 * kBytesPerMiB, free_bytes / 10);
  const std::uint64_t room = free_bytes > fg_size + margin ? free_bytes - fg_size - margin : 0;
  if (room < 16 * kBytesPerMiB) {
    throw UserError(
        fmt::format("not enough free space for the background writer: {} MiB free, {} MiB needed beside "
                    "the foreground file and a margin",
                    free_bytes / kBytesPerMiB, (fg_size + margin) / kBytesPerMiB + 16));
  }
  return std::min(want, room) / kBytesPerMiB * kBytesPerMiB;
}

std::vector<TrialResult> plan_trials(const InterfereOptions& o, const std::string& device) {
  std::vector<TrialResult> trials;
  const bool root = o.knobs.euid() == 0;
  for (const std::vector<KnobSetting>& settings : o.tries) {
    std::string reason;
    try {
      for (const auto& [knob, value] : settings) {
        check_knob_name(knob);
        normalize_knob_value(knob, value);
        if (!root) throw UserError(fmt::format("changing {} needs root", knob));
        if (is_queue_knob(knob)) {
          if (device.empty()) throw UserError(fmt::format("{}: the file is not on a block device", knob));
          const std::string path = knob_path(knob, device, o.knobs.roots);
          if (!fs::exists(path)) throw UserError(fmt::format("{}: {} does not exist on this kernel", knob, path));
        }
      }
    } catch (const UserError& e) {
      reason = e.what();
    }
    for (std::uint32_t threads : o.threads) {
      TrialResult t;
      t.settings = settings;
      t.threads = threads;
      t.skipped_reason = reason;
      trials.push_back(std::move(t));
    }
  }
  return trials;
}

InterfereReport run_interfere(const InterfereOptions& options) {
  install_stop_signal_handlers();
  InterfereReport report;
  report.options = options;
  InterfereOptions& o = report.options;
  if (o.filename.empty()) throw UserError("interfere needs --filename=FILE (the foreground file)");
  o.filename = fs::absolute(o.filename).lexically_normal().string();
  const std::string dir = fs::path(o.filename).parent_path().string();
  if (!fs::is_directory(dir)) throw UserError(fmt::format("--filename={}: {} is not a directory", o.filename, dir));
  const bool existed = fs::exists(o.filename);
  if (existed && !fs::is_regular_file(o.filename))
    throw UserError(fmt::format("--filename={}: not a regular file", o.filename));
  background_files(o.filename, std::max<std::uint32_t>(o.bg_writers, max_auto_writers()));
  if (fs::exists(o.filename + ".sluice-bg-probe")) {
    throw UserError(
        fmt::format("{}.sluice-bg-probe exists; interfere measures its writer there and will not "
                    "overwrite it",
                    o.filename));
  }
  const std::vector<std::string> devices = devices_under({o.filename}, o.sys_root);
  report.device = devices.empty() ? "" : devices.front();
  // --set: every phase, the sizing and the trials run with these knobs; restored at the end below, or by the
  // session's destructor when the run throws (and by the journal after a crash).
  std::optional<KnobSession> base;
  if (!o.base.empty()) {
    base.emplace(o.knobs);
    for (const auto& [knob, value] : o.base) {
      check_knob_name(knob);
      base->set(knob, value, is_queue_knob(knob) ? report.device : "");
    }
    report.base_changes = base->changes();  // the trials' own changes go through it later
  }
  report.vm = read_vm_dirty_settings(o.proc_root);
  report.limits = current_dirty_limits(o.proc_root);
  report.queue = read_queue_state(report.device, o.knobs.roots);
  report.free_bytes = free_bytes_at(dir);
  o.bg_size = o.bg_size ? o.bg_size : background_size(report.limits, report.free_bytes, existed ? 0 : o.size);
  report.sizing = options.bg_size ? BackgroundSizing::kUserSize
                  : o.bg_size < background_wanted(report.limits) / kBytesPerMiB * kBytesPerMiB
                      ? BackgroundSizing::kCappedBySpace
                      : BackgroundSizing::kFromLimit;
  if (o.try_auto) {
    for (std::vector<KnobSetting>& t : auto_trials(report.limits, report.queue)) o.tries.push_back(std::move(t));
  }
  report.trials = plan_trials(o, report.device);
  std::size_t phases = o.threads.size() * 2;
  for (const TrialResult& t : report.trials) phases += t.skipped_reason.empty() ? 1 : 0;
  const auto runtime = std::max<std::chrono::nanoseconds>(kMinPhase, o.budget / static_cast<long>(phases));
  report.environment = capture_environment({o.filename, o.filename + ".sluice-bg"}, o.proc_root, o.sys_root);
  read_filesystem(report);

  struct Cleanup {
    std::string fg;
    std::vector<std::string> bg;
    bool remove_fg;
    ~Cleanup() {
      std::error_code ec;
      for (const std::string& file : bg) {
        if (fs::remove(file, ec)) journal_removed(file);
      }
      if (remove_fg && fs::remove(fg, ec)) journal_removed(fg);
    }
  } cleanup{o.filename, {}, !existed};

  report.bg_writers = o.bg_writers;
  if (report.bg_writers == 0) {
    const std::string probe_file = o.filename + ".sluice-bg-probe";
    cleanup.bg = {probe_file};
    report.probe_bps = probe_writer_rate(
        probe_file, o.bg_bs,
        std::min({kWriterProbeBytes, o.bg_size, std::max(report.limits.background_bytes / 2, 16 * kBytesPerMiB)}));
    write_back_filesystem(dir);
    report.bg_writers = choose_writers(report.probe_bps, throttle_point(report.limits), runtime, max_auto_writers());
  }
  BackgroundWriters bg;
  bg.files = background_files(o.filename, report.bg_writers);
  bg.bytes_each = std::max<std::uint64_t>(o.bg_size / report.bg_writers / kBytesPerMiB, 1) * kBytesPerMiB;
  cleanup.bg = bg.files;
  report.bg_files = bg.files;
  report.bg_file = bg.files.front();

  for (std::uint32_t threads : o.threads) {
    if (stop_requested()) break;
    report.phases.push_back(run_phase(o, "idle", threads, runtime, {}, report.device));
    if (stop_requested()) break;
    report.phases.push_back(run_phase(o, "loaded", threads, runtime, bg, report.device));
    for (TrialResult& trial : report.trials) {
      if (trial.threads != threads || !trial.skipped_reason.empty() || stop_requested()) continue;
      run_trial(o, trial, runtime, bg, report.device, base ? &*base : nullptr);
      for (const KnobChange& c : trial.changes) report.knobs_restored = report.knobs_restored && c.restored;
      if (!trial.restore_failures.empty()) report.knobs_restored = false;
    }
  }
  report.interrupted = stop_requested();
  if (base) {
    const std::vector<std::string> failed = base->restore_all();
    for (KnobChange& c : report.base_changes) c.restored = failed.empty();
    if (!failed.empty()) report.knobs_restored = false;
    base.reset();
  }
  conclude_interfere(report, runtime);
  return report;
}

}  // namespace sluice
