#include "run/runner.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <thread>

#include "common/clock.h"
#include "common/error.h"
#include "common/stop_signal.h"
#include "engine/engine.h"
#include "job/job_spec.h"
#include "job/option_scope.h"
#include "job/units.h"
#include "observe/disk_stats.h"
#include "observe/environment.h"
#include "run/io_schedulers.h"
#include "run/job_cgroup.h"
#include "run/job_control.h"
#include "run/plan.h"
#include "run/replay_binding.h"
#include "run/status_line.h"
#include "run/worker.h"
#include "run/zoned_file.h"
#include "run/zoned_targets.h"
#include "targets/cache_hints.h"
#include "targets/target_file.h"
#include "version.h"

namespace sluice {
namespace {

// How long background jobs run before the foreground starts, so the foreground meets them at work.
constexpr auto kBackgroundHeadStart = std::chrono::milliseconds(100);

void default_notice(const std::string& text) { std::fprintf(stderr, "%s\n", text.c_str()); }

// How long past its expected end a time-bound group may run before the watchdog gives up on a stuck I/O
// (a stalled device): 10 s, or $SLUICE_STALL_GRACE_MS (a test hook, not an option).
std::uint64_t stall_grace_ns() {
  const char* ms = std::getenv("SLUICE_STALL_GRACE_MS");
  if (ms != nullptr && *ms != '\0') return std::strtoull(ms, nullptr, 10) * 1'000'000ull;
  return 10'000'000'000ull;
}

// A worker still running past the runtime plus the grace: stuck in an I/O the device does not complete.
std::string stall_message(const Worker& w, std::uint64_t expected_ns, std::uint64_t waited_ns) {
  std::uint64_t ios = 0;
  for (Direction d : kAllDirections) ios += w.live().ios[index_of(d)].load(std::memory_order_relaxed);
  return fmt::format(
      "stalled: an I/O has not completed {:.1f} s after the job's {:.1f} s were up; sluice stopped "
      "waiting for it ({} ios completed before; their latencies are lost with the stuck thread)",
      static_cast<double>(waited_ns) / 1e9, static_cast<double>(expected_ns) / 1e9, ios);
}

// The expected wall time of a group, for the ETA (0 when size-based).
std::uint64_t expected_group_ns(const GroupPlan& group) {
  std::uint64_t longest = 0;
  for (const JobInstance& job : group.jobs) {
    const JobSpec& s = job.spec;
    if (s.control.role == JobRole::kBackground) continue;  // stopped with the foreground jobs
    if (s.time.runtime.count() == 0) return 0;
    if (s.time.ramp_size != 0) return 0;  // its ramp lasts until enough I/O is done: no end to expect
    // exec's program may take grace_time to end after the runtime: not a stall.
    const auto grace = s.engine.ioengine == EngineKind::kExec ? s.engine.exec.grace_time : std::chrono::nanoseconds{0};
    longest = std::max<std::uint64_t>(
        longest, static_cast<std::uint64_t>((s.time.startdelay + s.time.ramp_time + s.time.runtime + grace).count()));
  }
  return longest;
}

struct PreparedGroup {
  std::unique_ptr<GroupControl> control;  // wait_for / exitall / flow; outlives the workers that use it
  std::vector<std::unique_ptr<Worker>> workers;
};

class LayoutReporter {
 public:
  LayoutReporter(const RunnerOptions& options) : options_(options), tty_(isatty(STDERR_FILENO) == 1) {}
  LayoutProgress callback() {
    return [this](const std::string& path, std::uint64_t done, std::uint64_t total) {
      if (tty_) {
        std::fprintf(stderr, "\r\033[Ksluice: laying out %s: %s of %s", path.c_str(),
                     format_bytes(double(done)).c_str(), format_bytes(double(total)).c_str());
        if (done >= total) std::fputs("\r\033[K", stderr);
        std::fflush(stderr);
      }
      if (done >= total && total > 0)
        notice(fmt::format("sluice: laid out {} ({})", path, format_bytes(double(total))));
    };
  }
  void notice(const std::string& text) { options_.notice ? options_.notice(text) : default_notice(text); }

 private:
  const RunnerOptions& options_;
  bool tty_;
};

PreparedGroup prepare_group(const GroupPlan& group, std::vector<std::vector<TargetFile>>& targets_of_job,
                            const RunnerOptions& options, std::map<std::string, std::uint64_t>& laid_out,
                            const RunIoJobs& io_jobs, ZonedFiles& zoned_files) {
  LayoutReporter reporter(options);
  PreparedGroup prepared;
  prepared.control = GroupControl::create(group, io_jobs);
  for (std::size_t i = 0; i < group.jobs.size(); ++i) {
    const JobInstance& instance = group.jobs[i];
    std::vector<TargetFile>& targets = targets_of_job[i];
    std::vector<TargetFile> to_lay_out;
    const EngineTraits& engine = engine_traits(instance.spec.engine.ioengine);
    // create_on_open: open_targets creates the file. fill_device writes: the job itself fills the
    // filesystem (a layout first would fill it before measuring, as fio does not). file_append writes: the
    // job's writes extend the file (a layout first would have them overwrite it).
    const JobSpec& spec = instance.spec;
    const bool extends_by_writing =
        (spec.target.fill_device || spec.target.file_append) && spec.does_writes() && !spec.does_reads();
    const bool lays_out = engine.lays_out && !spec.target.create_on_open && !extends_by_writing;
    // A file another job laid out is laid out again when this job's region reaches further (fio extends a
    // file to the offset + size of each job that uses it, e.g. a second job at offset=4g of a shared file).
    for (const TargetFile& t : targets) {
      const auto done = laid_out.find(t.path);
      if (lays_out && (done == laid_out.end() || done->second < t.size)) to_lay_out.push_back(t);
    }
    if (engine.dirs) {
      if (lays_out) make_target_directories(targets);  // dirstat, dirdelete: fio's setup makes them (0700)
    } else if (!to_lay_out.empty()) {
      prepare_targets(to_lay_out, instance.spec, reporter.callback());
      for (const TargetFile& t : to_lay_out) {
        std::uint64_t& size = laid_out[t.path];
        size = std::max(size, t.size);
        for (TargetFile& mine : targets) {
          if (mine.path != t.path) continue;
          mine.created_by_sluice = mine.created_by_sluice || t.created_by_sluice;
          mine.size = t.size;  // fill_device: what fitted
          mine.region_length = t.region_length;
        }
      }
    }
    if (engine.uses_files && !engine.lays_out) claim_files_the_engine_creates(targets);
    if (engine.needs_fd) {
      open_targets(targets, instance.spec);
      try {
        apply_cache_hints(targets, instance.spec.target, instance.spec.is_random());
      } catch (...) {
        close_targets(targets, false);
        throw;
      }
    }
    const WorkerConfig config{.series_interval_ns = static_cast<std::uint64_t>(options.series_interval.count()),
                              .snapshot_interval_ns = options.report_progress
                                                          ? static_cast<std::uint64_t>(options.report_interval.count())
                                                          : 0};
    auto worker = std::make_unique<Worker>(instance, targets, config);
    worker->set_group_control(prepared.control.get());
    worker->set_zoned_files(&zoned_files);
    worker->prepare();
    prepared.workers.push_back(std::move(worker));
  }
  return prepared;
}

// How long a periodic report waits for the jobs' answers: half the interval, at most a second.
std::chrono::nanoseconds report_patience(std::uint64_t interval_ns) {
  return std::chrono::nanoseconds(std::min<std::uint64_t>(interval_ns / 2, 1'000'000'000));
}

bool is_background(const Worker& w) { return w.instance().spec.control.role == JobRole::kBackground; }

LiveTotals live_totals(const std::vector<Worker*>& workers) {
  LiveTotals totals;
  for (const Worker* w : workers) {
    for (Direction d : kAllDirections) {
      totals.ios[index_of(d)] += w->live().ios[index_of(d)].load(std::memory_order_relaxed);
      totals.bytes[index_of(d)] += w->live().bytes[index_of(d)].load(std::memory_order_relaxed);
    }
  }
  return totals;
}

// The run so far for a periodic report: the groups that ended, and this group's jobs as of now. Each
// measuring job is asked for its result and answers at its next loop turn, or at once while it sleeps
// (run/result_snapshot.h); one blocked in a long io for more than `patience` shows its last answer. A job not
// yet measuring shows its name and no I/O.
RunResult progress_of(const RunResult& so_far, const GroupPlan& group, const std::vector<Worker*>& workers,
                      std::chrono::nanoseconds patience) {
  RunResult progress;
  progress.environment = so_far.environment;
  progress.warnings = so_far.warnings;
  progress.groups = so_far.groups;
  GroupResult running;
  running.groupid = group.groupid;
  running.group_reporting = group.group_reporting;
  std::vector<std::uint64_t> asked(workers.size(), 0);  // all asked first: they answer side by side
  for (std::size_t i = 0; i < workers.size(); ++i) {
    const LiveCounters& live = workers[i]->live();
    if (live.measuring.load(std::memory_order_relaxed) && !live.finished.load(std::memory_order_relaxed)) {
      asked[i] = workers[i]->live().snapshot.request();
    }
  }
  const auto deadline = std::chrono::steady_clock::now() + patience;
  for (std::size_t i = 0; i < workers.size(); ++i) {
    const ResultSnapshot& snapshot = workers[i]->live().snapshot;
    const auto left =
        std::max(std::chrono::nanoseconds(0),
                 std::chrono::duration_cast<std::chrono::nanoseconds>(deadline - std::chrono::steady_clock::now()));
    std::optional<JobResult> job = asked[i] != 0 ? snapshot.answer(asked[i], left) : snapshot.latest();
    running.jobs.push_back(job ? std::move(*job) : workers[i]->failed_result(0, ""));
  }
  progress.groups.push_back(std::move(running));
  return progress;
}

GroupResult run_group(const GroupPlan& group, PreparedGroup& prepared, const RunnerOptions& options,
                      const RunResult& so_far) {
  // Background jobs are released first, on their own gate, so the foreground meets them already running.
  StartGate background_gate;
  StartGate gate;
  std::vector<std::thread> threads;
  std::vector<Worker*> workers;
  std::uint64_t planned = 0;
  for (auto& w : prepared.workers) {
    workers.push_back(w.get());
    if (!is_background(*w)) planned += w->planned_bytes();
    const StartGate& mine = is_background(*w) ? background_gate : gate;
    threads.emplace_back([worker = w.get(), &mine] { worker->run(mine); });
  }
  StatusLine status(options.status_line, options.status_line_forced,
                    static_cast<std::uint64_t>(options.status_newline.count()));
  const std::uint64_t expected = expected_group_ns(group);
  if (options.before_measure) options.before_measure();
  background_gate.open();
  if (group.foreground_jobs() < group.jobs.size()) std::this_thread::sleep_for(kBackgroundHeadStart);
  const std::uint64_t start = monotonic_ns();
  gate.open();
  // The workers are looked at after 1 ms, then at doubling intervals up to every 50 ms: a short group (a few
  // null or cached ios, as in most tests) ends within about its own length, not at the first 50 ms poll; a
  // long one costs a few more wake-ups at its start.
  const auto poll = std::chrono::milliseconds(50);
  auto next_poll = std::chrono::microseconds(1000);
  std::uint64_t next_status = start + static_cast<std::uint64_t>(options.status_interval.count());
  // The watchdog: a time-bound group that runs past its end plus the grace has a stuck I/O; its workers are
  // stopped, and those still stuck a moment later are abandoned (their threads detached, never joined).
  const std::uint64_t give_up = expected != 0 ? start + expected + stall_grace_ns() : 0;
  std::vector<bool> stuck(workers.size(), false);
  // A periodic report comes just before each interval ends (so the last interval of a run still has one),
  // with each job's result as of then (progress_of).
  const auto report_interval = static_cast<std::uint64_t>(options.report_interval.count());
  const bool reports = report_interval != 0 && options.report_progress;
  std::uint64_t next_report = reports ? start + report_interval - snapshot_lead_ns(report_interval) / 2 : UINT64_MAX;
  for (;;) {
    bool all_done = true;
    for (Worker* w : workers) {
      if (!is_background(*w)) all_done = all_done && w->live().finished.load(std::memory_order_relaxed);
    }
    if (!all_done && give_up != 0 && monotonic_ns() >= give_up) {
      for (Worker* w : workers) w->request_stop();
      const std::uint64_t until = monotonic_ns() + 1'000'000'000ull;  // a last chance to notice the stop
      while (monotonic_ns() < until) {
        bool done = true;
        for (Worker* w : workers) done = done && w->live().finished.load(std::memory_order_relaxed);
        if (done) break;
        std::this_thread::sleep_for(poll);
      }
      for (std::size_t i = 0; i < workers.size(); ++i) {
        stuck[i] = !workers[i]->live().finished.load(std::memory_order_relaxed);
      }
      all_done = true;
    }
    if (all_done) {
      for (Worker* w : workers) {
        if (is_background(*w)) w->request_stop();  // their own end never ended the group; the foreground's does
      }
      break;
    }
    const std::uint64_t before_sleep = monotonic_ns();
    auto sleep = next_poll;
    if (next_report > before_sleep && next_report - before_sleep < static_cast<std::uint64_t>(sleep.count()) * 1000) {
      sleep = std::chrono::microseconds((next_report - before_sleep) / 1000 + 1);  // a report is not late by a poll
    }
    std::this_thread::sleep_for(sleep);
    next_poll = std::min<std::chrono::microseconds>(next_poll * 2, poll);
    const std::uint64_t now = monotonic_ns();
    if (now >= next_status) {
      status.update(workers, now - start, expected, planned);
      if (options.live_progress) options.live_progress(live_totals(workers));
      next_status = now + static_cast<std::uint64_t>(options.status_interval.count());
    }
    if (now >= next_report) {
      status.clear();
      try {
        options.report_progress(progress_of(so_far, group, workers, report_patience(report_interval)));
        while (next_report <= now) next_report += report_interval;
      } catch (const std::exception& e) {  // the workers run on: the measurement is not lost to a report
        default_notice(fmt::format("sluice: {}; no more periodic reports in this run", e.what()));
        next_report = UINT64_MAX;
      }
    }
  }
  // A stuck thread that returns later reports to its group control: that must outlive the group too.
  if (std::find(stuck.begin(), stuck.end(), true) != stuck.end()) (void)prepared.control.release();
  for (std::size_t i = 0; i < threads.size(); ++i) {
    if (stuck[i]) {
      threads[i].detach();  // blocked in the kernel; the worker it uses is leaked below, never freed under it
    } else {
      threads[i].join();
    }
  }
  status.clear();
  if (options.after_measure) options.after_measure();

  GroupResult result;
  result.groupid = group.groupid;
  result.group_reporting = group.group_reporting;
  for (std::size_t i = 0; i < prepared.workers.size(); ++i) {
    auto& w = prepared.workers[i];
    if (stuck[i]) {
      const std::uint64_t elapsed = monotonic_ns() - start;
      result.jobs.push_back(w->stalled_result(stall_message(*w, expected, elapsed - expected), elapsed));
      (void)w.release();  // its thread may still return from the I/O and touch it; its files stay open
      continue;
    }
    const JobSpec& spec = w->instance().spec;
    JobResult job = w->take_result();
    if (spec.durability.fsync_on_close) {
      // A failed fsync fails the job: its data may not be durable. The job's first error stays the one reported.
      if (auto failure = fsync_targets(w->targets()); failure && job.error == 0) {
        job.error = failure->error;
        job.error_message = failure->message;
      }
    }
    if (job.filled_up) {
      const std::uint64_t written = job.dirs[index_of(Direction::kWrite)].bytes;
      const std::string text = fmt::format("sluice: job {}: the filesystem filled up (fill_device) after {} written",
                                           job.name, format_bytes(double(written)));
      options.notice ? options.notice(text) : default_notice(text);
    }
    if (job.latency_target.is_object()) {
      const std::string text = fmt::format(
          "sluice: job {}: latency_target (fio's method) settled at iodepth {}; `sluice capacity` finds the highest "
          "load within a latency limit more robustly (an open-loop search of the offered rate, with confidence "
          "intervals)",
          job.name, job.latency_target.value("latency_depth", std::uint64_t{0}));
      options.notice ? options.notice(text) : default_notice(text);
    }
    close_targets(w->targets(), spec.target.unlink);
    result.jobs.push_back(std::move(job));
  }
  return result;
}

// What an engine cannot do to a target, refused before anything runs: the per-file engines work on regular
// files only, the dir ones on directories (filedelete would unlink a device node; fio refuses them too), and
// exec's program must exist.
void check_engine_targets(const JobSpec& job, const std::vector<TargetFile>& files) {
  const EngineTraits& engine = engine_traits(job.engine.ioengine);
  if (engine.per_file) {
    for (const TargetFile& t : files) {
      struct stat st {};
      const bool exists = ::stat(t.path.c_str(), &st) == 0;
      const bool right_kind = engine.dirs ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode);
      if (t.is_block_device || (exists && !right_kind)) {
        throw UserError(fmt::format("job {}: ioengine={} works on {} only, and {} is not one", job.name, engine.name,
                                    engine.dirs ? "directories" : "regular files", t.path));
      }
    }
  }
  if (job.engine.ioengine == EngineKind::kExec) check_exec_program(job.name, job.engine.exec.program);
  if (job.target.unlink_each_loop && job.time.loops > 1 && !job.time.time_based) {
    for (const TargetFile& t : files) {
      struct stat st {};
      if (!t.is_block_device && ::stat(t.path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
        throw UserError(
            fmt::format("job {}: unlink_each_loop would delete {}, which existed before this run; "
                        "sluice deletes only files it creates (remove it first, or add unlink=1 so "
                        "that the run removes the files it creates)",
                        job.name, t.path));
      }
    }
  }
}

// The null engine does no I/O: its "file" is a region of `size` bytes that no one opens. As in fio,
// `filesize` alone gives each file's size (and the job's size is nrfiles x filesize).
std::vector<TargetFile> null_targets(const JobSpec& job) {
  if (!engine_traits(job.engine.ioengine).does_io) {
    // cpuio, exec: one pretend block, repeated for the runtime (plan.cpp makes the job time_based).
    TargetFile pace;
    pace.stand_in = true;
    pace.path = fmt::format("({}:{})", engine_name(job.engine.ioengine), job.name);
    pace.size = pace.region_length =
        std::max<std::uint64_t>({job.workload.bs[0], job.workload.bs[1], job.workload.bs[2], 1u << 20});
    return {pace};
  }
  if (job.target.size.bytes == 0 && job.target.filesize == 0) {
    throw UserError(fmt::format("job {}: ioengine={} needs --size or --filesize (the amount of {})", job.name,
                                engine_name(job.engine.ioengine),
                                job.engine.ioengine == EngineKind::kPageFault ? "memory to map" : "pretend I/O"));
  }
  const std::uint32_t files = std::max<std::uint32_t>(1, job.target.nrfiles);
  const std::uint64_t per_file = job.target.size.bytes != 0 ? job.target.size.bytes / files : job.target.filesize;
  std::vector<TargetFile> targets(files);
  for (std::uint32_t i = 0; i < files; ++i) {
    targets[i].stand_in = true;
    targets[i].path = fmt::format("({}:{}.{}.{})", engine_name(job.engine.ioengine), job.name, 0, i);
    targets[i].size = per_file;
    targets[i].region_length = targets[i].size;
  }
  return targets;
}

// True when every file of the job is one an earlier group writes and none exists yet: its size is known
// only once that group ran (fio sets each job's files up at its start: a verify phase after a fill_device
// write phase reads what fitted).
bool produced_earlier(const JobInstance& instance, const std::set<std::string>& written_before) {
  std::vector<std::string> paths;
  try {
    paths = target_paths(instance.spec, instance.jobnum);
  } catch (const UserError&) {
    return false;
  }
  for (const std::string& path : paths) {
    if (!written_before.count(path) || ::access(path.c_str(), F_OK) == 0) return false;
  }
  return !paths.empty();
}

// The write safety check of one job: allow_mounted_write in the job is --allow-destructive for it.
WriteSafetyOptions safety_of(const JobSpec& job, WriteSafetyOptions options) {
  options.allow_destructive = options.allow_destructive || job.target.allow_mounted_write;
  return options;
}

// A group that cannot run: every job gets the error as its result.
GroupResult failed_group(const GroupPlan& group, int error, const std::string& message) {
  GroupResult result;
  result.groupid = group.groupid;
  result.group_reporting = group.group_reporting;
  for (const JobInstance& instance : group.jobs) {
    result.jobs.push_back(Worker(instance, {}, WorkerConfig{}).failed_result(error, message));
  }
  return result;
}

// Resolves the group's deferred jobs now that the groups before it ran. When one cannot be resolved (the
// earlier group did not create its file), the group does not run: every job gets the error as its result.
std::optional<GroupResult> resolve_deferred(const GroupPlan& group, const std::vector<bool>& deferred,
                                            std::vector<std::vector<TargetFile>>& targets,
                                            const WriteSafetyOptions& target_options, std::vector<std::string>& notes) {
  std::string failure;
  for (std::size_t i = 0; i < group.jobs.size() && failure.empty(); ++i) {
    if (!deferred[i]) continue;
    const JobInstance& instance = group.jobs[i];
    try {
      targets[i] = resolve_targets(instance.spec, instance.jobnum);
      if (instance.spec.does_writes() || instance.spec.does_trims()) {
        for (const TargetFile& t : targets[i]) check_write_safety(t, safety_of(instance.spec, target_options));
      }
      prepare_zoned_targets(instance.spec.zones, instance.spec.name,
                            instance.spec.does_writes() || instance.spec.does_trims(), targets[i], notes);
    } catch (const UserError& e) {
      failure = e.what();
    }
  }
  if (failure.empty()) return std::nullopt;
  return failed_group(group, ENOENT, failure);
}

// The paths of every job's targets, once each; with `plan`, only of the jobs that keep disk_util on.
std::vector<std::string> all_paths(const std::vector<std::vector<std::vector<TargetFile>>>& targets,
                                   const std::vector<GroupPlan>* plan = nullptr) {
  std::vector<std::string> paths;
  std::set<std::string> seen;
  for (std::size_t g = 0; g < targets.size(); ++g) {
    for (std::size_t j = 0; j < targets[g].size(); ++j) {
      if (plan != nullptr && !(*plan)[g].jobs[j].spec.report.disk_util) continue;
      for (const TargetFile& t : targets[g][j]) {
        if (t.stand_in) continue;
        if (seen.insert(t.path).second) paths.push_back(t.path);
      }
    }
  }
  return paths;
}

// fio's clocksource: one clock for the process, the last job that sets it wins.
void apply_clock_source(const std::vector<JobSpec>& jobs, const RunnerOptions& options) {
  std::string choice;
  for (const JobSpec& job : jobs) {
    if (!job.report.clocksource.empty()) choice = job.report.clocksource;
  }
  if (choice == "clock_gettime" || choice == "gettimeofday") {
    use_system_clock();
  } else if (choice == "cpu" && !tsc_clock_in_use()) {
    const std::string text =
        "sluice: clocksource=cpu: the TSC is not used (no invariant TSC, SLUICE_CLOCK=gettime, or an earlier "
        "clocksource in this process); sluice measures with clock_gettime(CLOCK_MONOTONIC)";
    options.notice ? options.notice(text) : default_notice(text);
  }
}

}  // namespace

RunResult run_jobs(const std::vector<JobSpec>& jobs, const RunnerOptions& options) {
  install_stop_signal_handlers();
  init_clock();
  apply_clock_source(jobs, options);
  RunResult result;
  result.version = SLUICE_VERSION;
  result.timestamp_ms = wall_clock_ms();
  result.clock_source = clock_source_name();

  std::vector<GroupPlan> plan = make_plan(jobs, monotonic_ns());
  bind_replay_logs(plan);
  if (!jobs.empty()) {
    const auto globals = global_options_of(jobs.front());
    if (!globals.empty()) result.extra["global options"] = globals;  // fio's top-level "global options"
  }
  // Every target is resolved and checked before anything is written, but for a file an earlier group
  // writes that does not exist yet and has no size: that job is resolved when its group starts.
  std::vector<std::vector<std::vector<TargetFile>>> targets(plan.size());
  std::vector<std::vector<bool>> deferred(plan.size());
  WriteSafetyOptions target_options;
  target_options.allow_destructive = options.allow_destructive;
  std::set<std::string> written_before;  // paths the groups so far write
  std::vector<std::string> zone_notes;   // zonemode=zbd: regions rounded to zones (fio says so too)
  for (std::size_t g = 0; g < plan.size(); ++g) {
    std::set<std::string> written_here;
    for (const JobInstance& instance : plan[g].jobs) {
      const bool files_job = engine_traits(instance.spec.engine.ioengine).uses_files;
      std::vector<TargetFile> files;
      bool later = false;
      try {
        files = files_job ? resolve_targets(instance.spec, instance.jobnum) : null_targets(instance.spec);
        if (instance.spec.does_writes() || instance.spec.does_trims()) {
          for (const TargetFile& t : files) check_write_safety(t, safety_of(instance.spec, target_options));
        }
      } catch (const UserError&) {
        later = files_job && produced_earlier(instance, written_before);
        if (!later) throw;
      }
      check_engine_targets(instance.spec, files);
      check_cgroup_support(instance.spec.placement, instance.spec.name);
      prepare_zoned_targets(instance.spec.zones, instance.spec.name,
                            instance.spec.does_writes() || instance.spec.does_trims(), files, zone_notes);
      if (files_job && (instance.spec.does_writes() || instance.spec.target.fill_device)) {
        for (const std::string& path : target_paths(instance.spec, instance.jobnum)) written_here.insert(path);
      }
      targets[g].push_back(std::move(files));
      deferred[g].push_back(later);
    }
    written_before.insert(written_here.begin(), written_here.end());
  }
  // ioscheduler: every group's requests are checked before anything runs (and set per group below).
  std::vector<std::vector<SchedulerRequest>> schedulers(plan.size());
  for (std::size_t g = 0; g < plan.size(); ++g) {
    if (std::any_of(deferred[g].begin(), deferred[g].end(), [](bool d) { return d; })) continue;
    schedulers[g] = scheduler_requests(plan[g], targets[g]);
    check_scheduler_requests(schedulers[g]);
  }
  for (const std::string& text : zone_notes) options.notice ? options.notice(text) : default_notice(text);
  const std::vector<std::string> paths = all_paths(targets);
  if (options.capture_environment) result.environment = capture_environment(paths);
  if (options.before_run) {
    for (Problem& p : options.before_run(RunPreview{plan, targets, result.environment})) {
      result.warnings.push_back(std::move(p));
    }
  }
  const std::vector<std::string> devices = devices_under(all_paths(targets, &plan));  // fio's disk_util
  std::vector<DiskCounters> before(devices.size());
  for (std::size_t i = 0; i < devices.size(); ++i) read_disk_counters(devices[i], before[i]);
  const std::uint64_t run_start = monotonic_ns();

  std::map<std::string, std::uint64_t> laid_out;  // path -> the size it was laid out to
  ZonedFiles zoned_files;                         // zonemode=zbd: the write pointers of the run, shared by its jobs
  std::vector<int> io_clones(plan.size(), 0);     // per group: the clones that do I/O (cpuio's exit_on_io_done)
  for (std::size_t g = 0; g < plan.size(); ++g) {
    for (const JobInstance& job : plan[g].jobs) io_clones[g] += engine_traits(job.spec.engine.ioengine).does_io ? 1 : 0;
  }
  int io_clones_after = 0;
  for (int n : io_clones) io_clones_after += n;
  const bool run_has_io = io_clones_after > 0;
  for (std::size_t g = 0; g < plan.size() && !stop_requested(); ++g) {
    io_clones_after -= io_clones[g];
    zone_notes.clear();
    std::optional<GroupResult> failed = resolve_deferred(plan[g], deferred[g], targets[g], target_options, zone_notes);
    for (const std::string& text : zone_notes) options.notice ? options.notice(text) : default_notice(text);
    if (failed) {
      result.groups.push_back(std::move(*failed));
      continue;
    }
    if (std::any_of(deferred[g].begin(), deferred[g].end(), [](bool d) { return d; })) {
      try {  // its files exist only now
        schedulers[g] = scheduler_requests(plan[g], targets[g]);
        check_scheduler_requests(schedulers[g]);
      } catch (const UserError& e) {
        result.groups.push_back(failed_group(plan[g], EINVAL, e.what()));
        continue;
      }
    }
    std::optional<GroupSchedulers> group_schedulers;  // set for the group, given back when it ends
    try {
      group_schedulers.emplace(schedulers[g]);
    } catch (const UserError& e) {
      result.groups.push_back(failed_group(plan[g], EPERM, e.what()));
      continue;
    }
    PreparedGroup prepared =
        prepare_group(plan[g], targets[g], options, laid_out, RunIoJobs{io_clones_after, run_has_io}, zoned_files);
    GroupResult ran = run_group(plan[g], prepared, options, result);
    result.groups.push_back(std::move(ran));
    // A file the group removed (filedelete, unlink=1) is laid out again for a later job that needs it.
    std::erase_if(laid_out, [](const auto& entry) { return ::access(entry.first.c_str(), F_OK) != 0; });
  }
  result.interrupted = stop_requested() && !stopped_by_trigger();
  if (options.after_run) {
    for (Problem& p : options.after_run(jobs, result)) result.warnings.push_back(std::move(p));
  }

  const std::uint64_t wall = monotonic_ns() - run_start;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    DiskCounters after;
    if (read_disk_counters(devices[i], after)) result.disks.push_back(disk_utilization(before[i], after, wall));
  }
  return result;
}

}  // namespace sluice
