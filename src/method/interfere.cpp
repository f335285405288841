#include "method/interfere.h"

#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "common/created_files.h"
#include "common/error.h"
#include "observe/disk_stats.h"
#include "observe/environment.h"
#include "method/lint.h"
#include "run/runner.h"
#include "common/stop_signal.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;
constexpr std::uint64_t kBytesPerMiB = 1ull << 20;
constexpr auto kMinPhase = std::chrono::seconds(2);

LatencySummary summarize_latency(const LatencyStat& stat) {
  LatencySummary s;
  s.mean_ns = stat.moments.count() ? stat.moments.mean() : 0.0;
  s.p95_ns = stat.histogram.percentile(95);
  s.p99_ns = stat.histogram.percentile(99);
  s.max_ns = stat.moments.count() ? static_cast<std::uint64_t>(stat.moments.max()) : 0;
  return s;
}

JobSpec foreground_job(const InterfereOptions& o, std::uint32_t threads, std::chrono::nanoseconds runtime) {
  JobSpec j;
  j.name = "fg";
  j.filenames = {o.filename};
  j.size.bytes = o.size;
  j.rw = RwMode::kRandWrite;
  j.bs = {o.fg_bs, o.fg_bs, o.fg_bs};
  j.fsync_blocks = o.fg_fsync;
  j.ioengine = EngineKind::kPsync;
  j.numjobs = threads;
  j.group_reporting = true;
  j.time_based = true;
  j.runtime = runtime;
  return j;
}

JobSpec background_job(const InterfereOptions& o, const std::string& bg_file, std::uint64_t bg_size) {
  JobSpec j;
  j.name = "bg";
  j.filenames = {bg_file};
  j.size.bytes = bg_size;
  j.rw = RwMode::kWrite;
  j.bs = {o.bg_bs, o.bg_bs, o.bg_bs};
  j.zero_buffers = true;
  j.ioengine = EngineKind::kPsync;
  j.role = JobRole::kBackground;
  j.create_on_open = true;  // written like dd: the file grows as the writer goes, nothing laid out before
  j.unlink = true;
  return j;
}

// Writes back what the phase left dirty, so the next phase starts from a quiet page cache.
void settle(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::syncfs(fd);
  ::close(fd);
}

PhaseResult run_phase(const InterfereOptions& o, const std::string& name, std::uint32_t threads,
                      std::chrono::nanoseconds runtime, const std::string& bg_file, std::uint64_t bg_size,
                      const std::string& device) {
  std::vector<JobSpec> jobs = {foreground_job(o, threads, runtime)};
  if (!bg_file.empty()) jobs.push_back(background_job(o, bg_file, bg_size));
  RunnerOptions ro;
  ro.status_line = o.status_line;
  ro.capture_environment = false;
  ro.notice = [](const std::string&) {};
  install_lint(ro);
  WritebackSampler sampler(device, std::chrono::seconds(1), o.proc_root, o.sys_root);
  sampler.start();
  PhaseResult p;
  p.name = name;
  p.threads = threads;
  p.run = run_jobs(jobs, ro);
  sampler.stop();
  settle(fs::path(o.filename).parent_path().string());
  if (p.run.groups.empty()) return p;
  JobResult fg;
  bool first = true;
  for (const JobResult& job : p.run.groups.front().jobs) {
    if (job.settings.background) {
      const auto& w = job.dirs[static_cast<std::size_t>(index_of(Direction::kWrite))];
      if (job.runtime_ns) p.bg_bw_bytes += static_cast<double>(w.bytes) * 1e9 / static_cast<double>(job.runtime_ns);
      continue;
    }
    if (first) fg = job; else fg.merge(job);
    first = false;
  }
  const auto& w = fg.dirs[static_cast<std::size_t>(index_of(Direction::kWrite))];
  p.seconds = static_cast<double>(fg.runtime_ns) / 1e9;
  p.iops = p.seconds > 0 ? static_cast<double>(w.ios) / p.seconds : 0;
  p.lat = summarize_latency(w.lat.moments.count() ? w.lat : w.clat);
  p.fsync_lat = summarize_latency(fg.sync.lat);
  std::uint64_t device_bytes = 0;
  const std::vector<WritebackSample>& samples = sampler.samples();
  for (std::size_t i = 0; i < samples.size(); ++i) {
    TimelinePoint point;
    point.wb = samples[i];
    point.t_s = samples[i].t_s;
    if (i < fg.series.size()) {
      const IntervalSample& s = fg.series.at(i)[static_cast<std::size_t>(index_of(Direction::kWrite))];
      point.fg_iops = static_cast<double>(s.ops) * 1e9 / static_cast<double>(fg.series.interval_ns());
      point.fg_lat_p99_ns = s.lat_p99_ns;
    }
    device_bytes += samples[i].dev_write_bytes;
    p.peak_dirty = std::max(p.peak_dirty, samples[i].dirty_bytes);
    p.peak_writeback = std::max(p.peak_writeback, samples[i].writeback_bytes);
    p.timeline.push_back(point);
  }
  if (!samples.empty() && samples.back().t_s > 0) p.device_write_bps = static_cast<double>(device_bytes) / samples.back().t_s;
  return p;
}

std::uint64_t free_bytes_at(const std::string& dir) {
  struct statvfs st {};
  if (::statvfs(dir.c_str(), &st) != 0) throw UserError(fmt::format("{}: statvfs: {}", dir, std::strerror(errno)));
  return static_cast<std::uint64_t>(st.f_bavail) * st.f_frsize;
}

void run_trial(const InterfereOptions& o, TrialResult& trial, std::chrono::nanoseconds runtime,
               const std::string& bg_file, std::uint64_t bg_size, const std::string& device) {
  KnobSession session(o.knobs);
  try {
    for (const auto& [knob, value] : trial.settings) session.set(knob, value, is_queue_knob(knob) ? device : "");
    trial.ran = true;
    trial.phase = run_phase(o, "trial", trial.threads, runtime, bg_file, bg_size, device);
  } catch (const UserError& e) {
    trial.skipped_reason = e.what();
  }
  trial.restore_failures = session.restore_all();
  trial.changes = session.changes();
}

}  // namespace

std::uint64_t background_size(const DirtyLimits& limits, std::uint64_t free_bytes, std::uint64_t fg_size) {
  const std::uint64_t want = std::max<std::uint64_t>(limits.limit_bytes + limits.limit_bytes / 4, 64 * kBytesPerMiB);
  const std::uint64_t margin = std::max<std::uint64_t>(1024 * kBytesPerMiB, free_bytes / 10);
  const std::uint64_t room = free_bytes > fg_size + margin ? free_bytes - fg_size - margin : 0;
  if (room < 16 * kBytesPerMiB) {
    throw UserError(fmt::format("not enough free space for the background writer: {} MiB free, {} MiB needed beside "
                                "the foreground file and a margin", free_bytes / kBytesPerMiB, (fg_size + margin) / kBytesPerMiB + 16));
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
  if (existed && !fs::is_regular_file(o.filename)) throw UserError(fmt::format("--filename={}: not a regular file", o.filename));
  report.bg_file = o.filename + ".sluice-bg";
  if (fs::exists(report.bg_file)) {
    throw UserError(fmt::format("{} exists; interfere writes its background file there and will not overwrite it",
                                report.bg_file));
  }
  const std::vector<std::string> devices = devices_under({o.filename}, o.sys_root);
  report.device = devices.empty() ? "" : devices.front();
  report.vm = read_vm_dirty_settings(o.proc_root);
  report.limits = resolve_dirty_limits(read_meminfo(o.proc_root).value_or(MemInfo{}), report.vm);
  const std::uint64_t bg_size =
      o.bg_size ? o.bg_size : background_size(report.limits, free_bytes_at(dir), existed ? 0 : o.size);
  o.bg_size = bg_size;
  report.trials = plan_trials(o, report.device);
  std::size_t phases = o.threads.size() * 2;
  for (const TrialResult& t : report.trials) phases += t.skipped_reason.empty() ? 1 : 0;
  const auto runtime = std::max<std::chrono::nanoseconds>(kMinPhase, o.budget / static_cast<long>(phases));
  report.environment = capture_environment({o.filename, report.bg_file}, o.proc_root, o.sys_root);

  struct Cleanup {
    std::string fg, bg;
    bool remove_fg;
    ~Cleanup() {
      std::error_code ec;
      if (fs::remove(bg, ec)) journal_removed(bg);
      if (remove_fg && fs::remove(fg, ec)) journal_removed(fg);
    }
  } cleanup{o.filename, report.bg_file, !existed};

  for (std::uint32_t threads : o.threads) {
    if (stop_requested()) break;
    report.phases.push_back(run_phase(o, "idle", threads, runtime, "", 0, report.device));
    if (stop_requested()) break;
    report.phases.push_back(run_phase(o, "loaded", threads, runtime, report.bg_file, bg_size, report.device));
    for (TrialResult& trial : report.trials) {
      if (trial.threads != threads || !trial.skipped_reason.empty() || stop_requested()) continue;
      run_trial(o, trial, runtime, report.bg_file, bg_size, report.device);
      for (const KnobChange& c : trial.changes) report.knobs_restored = report.knobs_restored && c.restored;
      if (!trial.restore_failures.empty()) report.knobs_restored = false;
    }
  }
  report.interrupted = stop_requested();

  ExplainInput in;
  in.limits = report.limits;
  in.vm = report.vm;
  in.phase_seconds = std::chrono::duration<double>(runtime).count();
  double idle_iops = 0;
  for (const PhaseResult& p : report.phases) {
    in.device_write_bps = std::max(in.device_write_bps, p.device_write_bps);
    if (p.name == "idle") idle_iops = p.iops;
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
    if (p.iops > 0) in.slowdown = std::max(in.slowdown, idle_iops / p.iops);
  }
  report.explanation = explain(in);
  return report;
}

}  // namespace sluice
