#include "run/job_hooks.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <ctime>

#include "common/stop_signal.h"

namespace sluice {
namespace {

bool needs_hooks(const JobSpec& job) {
  return job.latency.max_latency.count() > 0 || job.control.flow != 0 || !job.logs.write_hist_log.empty() ||
         job.steady_state.ss_criterion != SteadyStateCriterion::kNone || job.report.disable_lat ||
         job.report.disable_clat || job.report.disable_slat || job.control.exitall || !job.control.wait_for.empty() ||
         job.pacing.rate_min != PerDirection<std::uint64_t>{} ||
         job.pacing.rate_iops_min != PerDirection<std::uint64_t>{} || job.report.act_slice_ns != 0;
}

const char* direction_word(Direction d) noexcept {
  switch (d) {
    case Direction::kWrite:
      return "write";
    case Direction::kTrim:
      return "trim";
    default:
      return "read";
  }
}

void sleep_ns(std::uint64_t ns) noexcept {
  timespec ts{static_cast<time_t>(ns / 1'000'000'000ull), static_cast<long>(ns % 1'000'000'000ull)};
  nanosleep(&ts, nullptr);
}

}  // namespace

std::unique_ptr<JobHooks> JobHooks::create(const JobInstance& instance, std::vector<std::string> paths,
                                           GroupControl* control) {
  // A group whose jobs use exitall must be able to stop every job, so any job with a control gets hooks.
  if (control == nullptr && !needs_hooks(instance.spec)) return nullptr;
  return std::make_unique<JobHooks>(instance, std::move(paths), control);
}

JobHooks::JobHooks(const JobInstance& instance, std::vector<std::string> paths, GroupControl* control)
    : job_(instance.spec),
      paths_(std::move(paths)),
      control_(control),
      max_latency_ns_(static_cast<std::uint64_t>(job_.latency.max_latency.count())),
      hist_(HistLog::create(instance.spec, instance.lognum)) {
  for (int d = 0; d < kNumDirections; ++d)
    rate_checks_ = rate_checks_ || job_.pacing.rate_min[d] || job_.pacing.rate_iops_min[d];
  if (control_ != nullptr) {
    flow_ = control_->flow_of(job_);
    if (flow_ != nullptr) flow_slot_ = control_->flow_slot(instance);
    if (shares_steady_state(job_)) steady_share_ = control_->steady_share();
    if (steady_share_ != nullptr) steady_slot_ = steady_share_->join();
  }
  flow_sleep_ns_ =
      static_cast<std::uint64_t>(std::max(job_.control.flow_sleep, std::chrono::nanoseconds(1000)).count());
}

JobHooks::Verdict JobHooks::after_io(Direction d, std::uint64_t lat_ns, int file_index, std::uint64_t offset,
                                     std::uint32_t length, JobResult& result) {
  if (max_latency_ns_ != 0 && lat_ns > max_latency_ns_) {
    const std::string path = file_index >= 0 && static_cast<std::size_t>(file_index) < paths_.size()
                                 ? paths_[static_cast<std::size_t>(file_index)]
                                 : std::string("?");
    if (result.error == 0) {
      result.error = ETIMEDOUT;
      result.error_message = fmt::format("latency of {} nsec exceeds specified max ({} nsec): {} {} {} {}", lat_ns,
                                         max_latency_ns_, path, direction_word(d), offset, length);
    }
    result.stopped_by_max_latency = true;
    return Verdict::kFail;
  }
  if (act_) act_->count(lat_ns);
  if (flow_ != nullptr) {
    // As fio: a job ahead of its share issues nothing until the others catch up (or leave, or the group or
    // the run stops), sleeping flow_sleep at a time; one sleep an io let it run on while the others waited
    // for a CPU (JobControl.FlowKeepsTheRatioOfWeights measured 2.3 for 4 on a loaded machine).
    flow_->count(flow_slot_);
    while (flow_->ahead(flow_slot_) && !control_->stop_requested() && !sluice::stop_requested()) {
      sleep_ns(flow_sleep_ns_);
    }
  }
  return Verdict::kContinue;
}

void JobHooks::restart() {
  next_rate_check_ns_ = 0;
  window_bytes_ = {};
  window_ios_ = {};
  steady_.reset();
  if (hist_) hist_->restart();
}

JobHooks::Verdict JobHooks::poll(std::uint64_t now_ns, bool measuring, JobResult& result) {
  if (control_ != nullptr && control_->stop_requested()) return Verdict::kEnd;
  if (steady_share_ != nullptr && steady_share_->attained()) return Verdict::kEnd;  // the group is steady
  if (control_ != nullptr && job_.engine.cpuio.exit_on_io_done && control_->io_jobs_done()) return Verdict::kEnd;
  if (!measuring) return Verdict::kContinue;
  if (job_.report.act_slice_ns != 0) {  // --profile=act: an hour's slice that failed ACT's criteria ends the test
    if (!act_) act_.emplace(job_.report.act_slice_ns, job_.report.act_duration_ns, result.start_ns);
    if (std::optional<std::string> failure = act_->advance(now_ns)) {
      if (result.error == 0) {
        result.error = ETIMEDOUT;
        result.error_message = *failure;
      }
      return Verdict::kFail;
    }
  }
  if (hist_) hist_->update(now_ns - result.start_ns, result.dirs);
  if (job_.steady_state.ss_criterion != SteadyStateCriterion::kNone && job_.steady_state.ss_duration.count() > 0) {
    if (!steady_) steady_.emplace(job_.steady_state, result.start_ns);
    SteadyStateMonitor::Totals totals;
    for (const DirectionStats& dir : result.dirs) {
      totals.bytes += dir.bytes;
      totals.ios += dir.ios;
      totals.clat_sum_ns += dir.clat.moments.mean() * static_cast<double>(dir.clat.count());
      totals.clat_samples += dir.clat.count();
    }
    if (steady_share_ != nullptr) {  // judged on the group's counts (fio's group_bw, group_iops, group_lat)
      steady_share_->publish(steady_slot_, totals);
      totals = steady_share_->total();
    }
    if (steady_->update(now_ns, totals)) {
      if (steady_share_ != nullptr) steady_share_->attain(steady_->to_json());
      return Verdict::kEnd;
    }
  }
  if (rate_checks_) return check_rates(now_ns, result);
  return Verdict::kContinue;
}

// fio's check_min_rate: over each rate_cycle window (1000 ms by default) of the measured phase, every
// direction with a minimum must reach it; the message and the error (EIO) are fio's.
JobHooks::Verdict JobHooks::check_rates(std::uint64_t now_ns, JobResult& result) {
  const auto window_ns = static_cast<std::uint64_t>(std::max<std::int64_t>(job_.pacing.rate_cycle.count(), 1));
  if (next_rate_check_ns_ == 0) {
    next_rate_check_ns_ = result.start_ns + window_ns;
    return Verdict::kContinue;
  }
  if (now_ns < next_rate_check_ns_) return Verdict::kContinue;
  const double seconds = static_cast<double>(now_ns - (next_rate_check_ns_ - window_ns)) / 1e9;
  const PerDirection<bool> issued = {job_.does_reads(), job_.does_writes(), job_.does_trims()};
  for (int d = 0; d < kNumDirections; ++d) {
    const DirectionStats& dir = result.dirs[d];
    const auto bw = static_cast<std::uint64_t>(static_cast<double>(dir.bytes - window_bytes_[d]) / seconds);
    const auto iops = static_cast<std::uint64_t>(static_cast<double>(dir.ios - window_ios_[d]) / seconds);
    window_bytes_[d] = dir.bytes;
    window_ios_[d] = dir.ios;
    if (!issued[d] || result.error != 0) continue;
    if (job_.pacing.rate_min[d] != 0 && bw < job_.pacing.rate_min[d]) {
      result.error = EIO;
      result.error_message =
          fmt::format("{}: rate_min={}B/s not met, got {}B/s", job_.name, job_.pacing.rate_min[d], bw);
    } else if (job_.pacing.rate_iops_min[d] != 0 && iops < job_.pacing.rate_iops_min[d]) {
      result.error = EIO;
      result.error_message =
          fmt::format("{}: rate_iops_min={} not met, got {} IOPS", job_.name, job_.pacing.rate_iops_min[d], iops);
    }
  }
  next_rate_check_ns_ = now_ns + window_ns;
  return result.error != 0 ? Verdict::kFail : Verdict::kContinue;
}

void JobHooks::finish(std::uint64_t now_ns, JobResult& result) {
  if (act_) result.act_slices = act_->slices();
  if (hist_) hist_->finish(now_ns > result.start_ns ? now_ns - result.start_ns : 0, result.dirs);
  if (job_.steady_state.ss_criterion != SteadyStateCriterion::kNone) {
    if (!steady_) steady_.emplace(job_.steady_state, result.start_ns);
    // Under group_reporting every job of a steady group reports the block of the job that found it so.
    const bool group_steady = steady_share_ != nullptr && steady_share_->attained() && !steady_->attained();
    result.steadystate = group_steady ? steady_share_->block() : steady_->to_json();
  }
  for (DirectionStats& dir : result.dirs) {
    if (job_.report.disable_lat) dir.lat = LatencyStat{};
    if (job_.report.disable_clat) dir.clat = LatencyStat{};
    if (job_.report.disable_slat) dir.slat = LatencyStat{};
  }
}

}  // namespace sluice
