#include "run/worker.h"

#include <fmt/format.h>

#include <cerrno>
#include <optional>
#include <stdexcept>
#include <thread>

#include "common/error.h"
#include "common/stop_signal.h"
#include "job/job_spec.h"
#include "job/option_scope.h"
#include "run/exec_hooks.h"
#include "run/io_loop.h"
#include "run/job_cgroup.h"
#include "run/job_credentials.h"
#include "run/thread_placement.h"

namespace sluice {

void StartGate::open() noexcept {
  open_.store(true, std::memory_order_release);
  open_.notify_all();
}

void StartGate::wait() const noexcept { open_.wait(false, std::memory_order_acquire); }

struct Worker::Loop {
  IoLoop io;
  Loop(const JobInstance& instance, const std::vector<TargetFile>& targets, std::uint64_t interval)
      : io(io_loop_inputs(instance, targets), targets, interval, make_engine(instance.spec.engine)) {}
};

namespace {

JobReportSettings report_settings_of(const JobSpec& job) {
  JobReportSettings s;
  s.rw = std::string(rw_mode_name(job.workload.rw));
  s.ioengine = std::string(engine_name(job.engine.ioengine));
  s.iodepth = job.queue.iodepth;
  for (Direction d : kAllDirections) {
    const int i = index_of(d);
    std::uint64_t lo = job.workload.bs[i], hi = job.workload.bs[i];
    if (job.workload.bsrange[i].min) {
      lo = job.workload.bsrange[i].min;
      hi = job.workload.bsrange[i].max;
    }
    if (!job.workload.bssplit[i].empty()) {
      lo = hi = job.workload.bssplit[i].front().size;
      for (const auto& e : job.workload.bssplit[i]) {
        lo = std::min(lo, e.size);
        hi = std::max(hi, e.size);
      }
    }
    s.bs_min[i] = lo;
    s.bs_max[i] = hi;
  }
  s.percentile_list = job.report.percentile_list;
  s.clat_percentiles = job.report.clat_percentiles;
  s.lat_percentiles = job.report.lat_percentiles;
  s.slat_percentiles = job.report.slat_percentiles;
  s.kb_base = job.report.kb_base;
  s.significant_figures = static_cast<int>(job.report.significant_figures);
  s.bandwidth_in_bits = job.report.unit_base_bits;
  s.time_based = job.time.time_based;
  s.open_loop = job.open_loop_active();
  s.unified_rw_reporting = job.report.unified_rw_reporting;
  s.background = job.control.role == JobRole::kBackground;
  s.stats = job.report.stats;
  return s;
}

}  // namespace

Worker::Worker(JobInstance instance, std::vector<TargetFile> targets, WorkerConfig config)
    : instance_(std::move(instance)), targets_(std::move(targets)), config_(config) {
  result_.name = instance_.spec.name;
  result_.description = instance_.spec.description;
  result_.jobnum = instance_.jobnum;
  result_.groupid = instance_.groupid;
  result_.settings = report_settings_of(instance_.spec);
  result_.options = own_options_of(instance_.spec);  // the globals go to the document's "global options"
}

Worker::~Worker() = default;

JobResult Worker::stalled_result(const std::string& message, std::uint64_t elapsed_ns) const {
  JobResult r = failed_result(ETIMEDOUT, message);
  r.runtime_ns = elapsed_ns;
  for (Direction d : kAllDirections) {
    r.dirs[static_cast<std::size_t>(index_of(d))].ios = live().ios[index_of(d)].load(std::memory_order_relaxed);
    r.dirs[static_cast<std::size_t>(index_of(d))].bytes = live().bytes[index_of(d)].load(std::memory_order_relaxed);
  }
  return r;
}

JobResult Worker::failed_result(int error, const std::string& message) const {
  JobResult r;
  r.name = instance_.spec.name;
  r.description = instance_.spec.description;
  r.jobnum = instance_.jobnum;
  r.groupid = instance_.groupid;
  r.settings = report_settings_of(instance_.spec);
  r.options = own_options_of(instance_.spec);
  r.error = error;
  r.error_message = message;
  return r;
}

void Worker::prepare() {
  loop_ = std::make_unique<Loop>(instance_, targets_, config_.series_interval_ns);
  loop_->io.set_group_control(control_);
  loop_->io.set_zoned_files(zoned_files_);
  loop_->io.prepare();
  loop_->io.set_stop_flag(&stop_);
  loop_->io.set_snapshot_interval(config_.snapshot_interval_ns);
}

std::uint64_t Worker::planned_bytes() const noexcept { return loop_ ? loop_->io.planned_bytes() : 0; }

void Worker::run(const StartGate& gate) noexcept {
  gate.wait();
  if (control_ != nullptr && !control_->wait_turn(instance_)) {  // the group stopped before its turn came
    control_->finished(instance_);
    live_.snapshot.close();
    live_.finished.store(true, std::memory_order_relaxed);
    return;
  }
  try {
    const std::string placement_error = apply_thread_placement(instance_.spec.placement, instance_.jobnum);
    if (!placement_error.empty()) throw std::runtime_error(placement_error);
    const std::string policy_error =
        apply_numa_mem_policy(instance_.spec.placement, loop_->io.buffer_memory(), loop_->io.buffer_bytes());
    if (!policy_error.empty()) throw std::runtime_error(policy_error);
    const JobSpec& spec = instance_.spec;
    std::optional<JobCgroup> cgroup;  // cgroup=: the thread's I/O is the cgroup's until the job ends
    if (uses_cgroup(spec.placement)) cgroup.emplace(spec.placement, spec.name);
    std::optional<JobCredentials> credentials;  // uid= / gid=: from here on the job is its user (after the cgroup)
    if (spec.placement.uid >= 0 || spec.placement.gid >= 0) {
      credentials.emplace(spec.placement);
      if (std::optional<TargetFailure> denied =
              inaccessible_target(targets_, spec.does_reads() || spec.verification.verify != VerifyKind::kNone,
                                  spec.does_writes() || spec.does_trims())) {
        result_.error = denied->error;
        throw std::runtime_error(denied->message);
      }
    }
    if (!spec.control.exec_prerun.empty()) {
      const std::string failed = run_exec_hook("exec_prerun", spec.control.exec_prerun, spec.name + ".prerun.txt");
      if (!failed.empty()) {
        result_.error = ECANCELED;  // fio reports error 0 and does no I/O: a failure that looks like a result
        throw std::runtime_error(failed + ": the job did not run");
      }
    }
    if (spec.target.create_only) {
      live_.snapshot.close();
      live_.finished.store(true, std::memory_order_relaxed);  // the files are laid out: that was the job
    } else {
      loop_->io.run(result_, live_);
    }
    if (!spec.control.exec_postrun.empty()) {
      const std::string failed = run_exec_hook("exec_postrun", spec.control.exec_postrun, spec.name + ".postrun.txt");
      if (!failed.empty() && result_.error == 0) {
        result_.error = ECANCELED;
        throw std::runtime_error(failed);
      }
    }
  } catch (const std::exception& e) {
    if (result_.error == 0) result_.error = EIO;
    result_.error_message = e.what();
    live_.snapshot.close();
    live_.finished.store(true, std::memory_order_relaxed);
  }
  if (control_ != nullptr) control_->finished(instance_, result_.error != 0);
}

}  // namespace sluice
