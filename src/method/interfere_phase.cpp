#include "method/interfere_phase.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "method/lint.h"
#include "observe/vm_dirty_settings.h"
#include "run/runner.h"

namespace sluice {
namespace {

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
  j.target.filenames = {o.filename};
  j.target.size.bytes = o.size;
  j.workload.rw = RwMode::kRandWrite;
  j.workload.bs = {o.fg_bs, o.fg_bs, o.fg_bs};
  j.durability.fsync_blocks = o.fg_fsync;
  j.engine.ioengine = EngineKind::kPsync;
  j.control.numjobs = threads;
  j.report.group_reporting = true;
  j.time.time_based = true;
  j.time.runtime = runtime;
  return j;
}

JobSpec background_job(const InterfereOptions& o, const std::string& file, std::uint64_t bytes, std::size_t index) {
  JobSpec j;
  j.name = index == 0 ? "bg" : "bg" + std::to_string(index + 1);
  j.target.filenames = {file};
  j.target.size.bytes = bytes;
  j.workload.rw = RwMode::kWrite;
  j.workload.bs = {o.bg_bs, o.bg_bs, o.bg_bs};
  j.buffers.zero_buffers = true;
  j.engine.ioengine = EngineKind::kPsync;
  j.control.role = JobRole::kBackground;
  j.target.create_on_open = true;  // written like dd or cp: the file grows as the writer goes, nothing laid out before
  j.target.unlink = true;
  return j;
}

void add_timeline(PhaseResult& p, const JobResult& fg, const std::vector<WritebackSample>& samples) {
  std::uint64_t device_bytes = 0;
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
    p.peak_device_queue = std::max(p.peak_device_queue, samples[i].dev_queue);
    p.timeline.push_back(point);
  }
  if (!samples.empty() && samples.back().t_s > 0) {
    p.device_write_bps = static_cast<double>(device_bytes) / samples.back().t_s;
  }
}

}  // namespace

DirtyLimits current_dirty_limits(const std::string& proc_root) {
  DirtyLimits d = resolve_dirty_limits(read_meminfo(proc_root).value_or(MemInfo{}), read_vm_dirty_settings(proc_root));
  if (const auto kernel = read_kernel_dirty_thresholds(proc_root)) {
    d.limit_bytes = kernel->limit_bytes;
    d.background_bytes = kernel->background_bytes;
    d.from_kernel = true;
  }
  return d;
}

void write_back_filesystem(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::syncfs(fd);
  ::close(fd);
}

PhaseResult run_phase(const InterfereOptions& o, const std::string& name, std::uint32_t threads,
                      std::chrono::nanoseconds runtime, const BackgroundWriters& bg, const std::string& device) {
  std::vector<JobSpec> jobs = {foreground_job(o, threads, runtime)};
  for (std::size_t i = 0; i < bg.files.size(); ++i) jobs.push_back(background_job(o, bg.files[i], bg.bytes_each, i));
  RunnerOptions ro;
  ro.status_line = o.status_line;
  ro.capture_environment = false;
  ro.notice = [](const std::string&) {};
  install_lint(ro);
  PhaseResult p;
  p.name = name;
  p.threads = threads;
  p.has_flood = !bg.files.empty();
  p.limits = current_dirty_limits(o.proc_root);
  WritebackSampler sampler(device, std::chrono::seconds(1), o.proc_root, o.sys_root);
  sampler.start();
  p.run = run_jobs(jobs, ro);
  sampler.stop();
  write_back_filesystem(std::filesystem::path(o.filename).parent_path().string());
  if (p.run.groups.empty()) return p;
  JobResult fg;
  bool first = true;
  for (const JobResult& job : p.run.groups.front().jobs) {
    if (job.settings.background) {
      const auto& w = job.dirs[static_cast<std::size_t>(index_of(Direction::kWrite))];
      if (job.runtime_ns) p.bg_bw_bytes += static_cast<double>(w.bytes) * 1e9 / static_cast<double>(job.runtime_ns);
      continue;
    }
    if (first)
      fg = job;
    else
      fg.merge(job);
    first = false;
  }
  const auto& w = fg.dirs[static_cast<std::size_t>(index_of(Direction::kWrite))];
  p.seconds = static_cast<double>(fg.runtime_ns) / 1e9;
  p.iops = p.seconds > 0 ? static_cast<double>(w.ios) / p.seconds : 0;
  p.lat = summarize_latency(w.lat.moments.count() ? w.lat : w.clat);
  p.fsync_lat = summarize_latency(fg.sync.lat);
  add_timeline(p, fg, sampler.samples());
  return p;
}

}  // namespace sluice
