#include "run/job_control.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "common/error.h"
#include "common/nearest.h"
#include "common/stop_signal.h"
#include "job/option_table.h"

namespace sluice {
std::string expand_filename_format(const std::string& format, const std::string& jobname, int jobnum, int filenum) {
  std::string out;
  for (std::size_t i = 0; i < format.size();) {
    if (format.compare(i, 8, "$jobname") == 0) {
      out += jobname;
      i += 8;
    } else if (format.compare(i, 7, "$jobnum") == 0) {
      out += std::to_string(jobnum);
      i += 7;
    } else if (format.compare(i, 8, "$filenum") == 0) {
      out += std::to_string(filenum);
      i += 8;
    } else {
      out += format[i++];
    }
  }
  return out;
}

void apply_clone_options(JobInstance& instance) {
  JobSpec& spec = instance.spec;
  if (!spec.target.filename_format.empty() && spec.target.filenames.empty()) {
    const std::uint32_t files = std::max<std::uint32_t>(1, spec.target.nrfiles);
    for (std::uint32_t i = 0; i < files; ++i) {
      spec.target.filenames.push_back(
          expand_filename_format(spec.target.filename_format, spec.name, instance.jobnum, static_cast<int>(i)));
    }
  }
  if (spec.target.offset_increment != 0 && spec.target.offset.percent <= 0.0) {
    spec.target.offset.bytes += static_cast<std::uint64_t>(instance.jobnum) * spec.target.offset_increment;
  }
}

std::size_t FlowGroup::join(std::uint32_t weight) {
  if (jobs_ >= kMaxJobs) throw UserError(fmt::format("flow: at most {} jobs per flow_id", kMaxJobs));
  const std::size_t slot = jobs_++;
  weight_[slot] = std::max<std::uint32_t>(weight, 1);
  total_weight_.fetch_add(weight_[slot], std::memory_order_relaxed);
  return slot;
}

// A job is ahead when its share of the group's ios exceeds its share of the weights by more than a small
// slack (so two jobs do not take turns sleeping on every io).
void FlowGroup::count(std::size_t slot) noexcept {
  ios_[slot].value.fetch_add(1, std::memory_order_relaxed);
  total_ios_.fetch_add(1, std::memory_order_relaxed);
}

bool FlowGroup::ahead(std::size_t slot) const noexcept {
  const std::uint64_t mine = ios_[slot].value.load(std::memory_order_relaxed);
  const std::uint64_t total = total_ios_.load(std::memory_order_relaxed);
  const std::uint64_t weights = total_weight_.load(std::memory_order_relaxed);
  constexpr std::uint64_t kSlack = 16;
  return mine * weights > (total + kSlack * weights) * weight_[slot];
}

void FlowGroup::leave(std::size_t slot) noexcept {
  total_weight_.fetch_sub(weight_[slot], std::memory_order_relaxed);
  total_ios_.fetch_sub(ios_[slot].value.load(std::memory_order_relaxed), std::memory_order_relaxed);
}

GroupControl::GroupControl(const GroupPlan& group, RunIoJobs io_jobs) : io_jobs_(io_jobs) {
  std::size_t ramping = 0;
  for (const JobInstance& job : group.jobs) ramping += shares_ramp(job.spec) ? 1 : 0;
  if (ramping > 0) ramp_ = std::make_unique<RampShare>(ramping);
  std::size_t judged = 0;
  for (const JobInstance& job : group.jobs) judged += shares_steady_state(job.spec) ? 1 : 0;
  if (judged > 0) steady_ = std::make_unique<SteadyShare>(judged);
  for (const JobInstance& job : group.jobs) {
    running_clones_[job.spec.name]++;
    if (engine_traits(job.spec.engine.ioengine).does_io) io_clones_running_.fetch_add(1, std::memory_order_relaxed);
    if (job.spec.control.flow != 0) {
      auto& flow = flows_[job.spec.control.flow_id];
      if (!flow) flow = std::make_unique<FlowGroup>();
      const auto weight =
          static_cast<std::uint32_t>(job.spec.control.flow < 0 ? -job.spec.control.flow : job.spec.control.flow);
      flow_slots_[{job.spec.name, job.jobnum}] = flow->join(weight);
    }
  }
}

std::unique_ptr<GroupControl> GroupControl::create(const GroupPlan& group, RunIoJobs io_jobs) {
  for (const JobInstance& job : group.jobs) {
    if (!job.spec.control.wait_for.empty() || job.spec.control.exitall || job.spec.errors.exitall_on_error ||
        job.spec.control.flow != 0 || job.spec.engine.cpuio.exit_on_io_done || shares_ramp(job.spec) ||
        shares_steady_state(job.spec)) {
      return std::make_unique<GroupControl>(group, io_jobs);
    }
  }
  return nullptr;
}

bool GroupControl::wait_turn(const JobInstance& me) noexcept {
  const std::string& waitee = me.spec.control.wait_for;
  if (waitee.empty()) return !stop_requested();
  std::unique_lock lock(mutex_);
  const auto it = running_clones_.find(waitee);
  if (it == running_clones_.end()) return !stop_requested();  // in an earlier group: already done
  while (it->second > 0 && !stop_requested() && !sluice::stop_requested()) {
    changed_.wait_for(lock, std::chrono::milliseconds(50));
  }
  return !stop_requested() && !sluice::stop_requested();
}

void GroupControl::finished(const JobInstance& me, bool failed) noexcept {
  if (me.spec.control.flow != 0) {
    if (FlowGroup* flow = flow_of(me.spec)) flow->leave(flow_slot(me));
  }
  {
    std::lock_guard lock(mutex_);
    running_clones_[me.spec.name]--;
    if (engine_traits(me.spec.engine.ioengine).does_io) io_clones_running_.fetch_sub(1, std::memory_order_relaxed);
    if (me.spec.control.exitall || (failed && me.spec.errors.exitall_on_error))
      stop_.store(true, std::memory_order_relaxed);
  }
  changed_.notify_all();
}

FlowGroup* GroupControl::flow_of(const JobSpec& job) noexcept {
  if (job.control.flow == 0) return nullptr;
  const auto it = flows_.find(job.control.flow_id);
  return it == flows_.end() ? nullptr : it->second.get();
}

std::size_t GroupControl::flow_slot(const JobInstance& me) const noexcept {
  const auto it = flow_slots_.find({me.spec.name, me.jobnum});
  return it == flow_slots_.end() ? 0 : it->second;
}

}  // namespace sluice
