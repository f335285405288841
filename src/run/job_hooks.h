#pragma once
// JobHooks: the fio job-control features a worker's io loop consults, kept out of the hot-path file:
// max_latency, rate_min / rate_iops_min, steadystate, exitall (through GroupControl), flow, the histogram
// log and disable_lat/clat/slat. The io loop calls after_io() per measured io and poll() between batches.
// Threads: owned by one worker; GroupControl is shared (see job_control.h).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "report/logs/hist_log.h"
#include "run/job_control.h"
#include "run/plan.h"
#include "run/steady_state_monitor.h"
#include "stats/act_slices.h"
#include "stats/result.h"

namespace sluice {

class JobHooks {
 public:
  enum class Verdict { kContinue, kEnd, kFail };  // kEnd: stop like a time-based end; kFail: result.error set

  // nullptr when the job uses none of the features and has no group control to honour.
  static std::unique_ptr<JobHooks> create(const JobInstance& instance, std::vector<std::string> paths,
                                          GroupControl* control);
  JobHooks(const JobInstance& instance, std::vector<std::string> paths, GroupControl* control);

  // Per measured io. Returns kFail when the io's latency exceeded max_latency (result's error set to
  // ETIMEDOUT with fio's message). May sleep (flow).
  Verdict after_io(Direction d, std::uint64_t lat_ns, int file_index, std::uint64_t offset, std::uint32_t length,
                   JobResult& result);
  // Between batches; cheap unless a check is due. measuring: the measured phase has begun.
  Verdict poll(std::uint64_t now_ns, bool measuring, JobResult& result);
  // At the end of the job: last histogram window, steadystate block, disable_*lat.
  void finish(std::uint64_t now_ns, JobResult& result);
  // The job's statistics started over (latency_target's final window): windows and deltas start over too.
  void restart();

 private:
  Verdict check_rates(std::uint64_t now_ns, JobResult& result);

  const JobSpec& job_;
  std::vector<std::string> paths_;
  GroupControl* control_;
  FlowGroup* flow_ = nullptr;
  std::size_t flow_slot_ = 0;
  std::uint64_t flow_sleep_ns_ = 1'000'000;
  std::uint64_t max_latency_ns_ = 0;
  bool rate_checks_ = false;
  std::uint64_t next_rate_check_ns_ = 0;
  PerDirection<std::uint64_t> window_bytes_{};
  PerDirection<std::uint64_t> window_ios_{};
  std::unique_ptr<HistLog> hist_;
  std::optional<SteadyStateMonitor> steady_;
  SteadyShare* steady_share_ = nullptr;  // group_reporting: the group is judged as one (run/steady_share.h)
  std::size_t steady_slot_ = 0;
  std::optional<ActSlices> act_;  // --profile=act: the job's slices, from its measured start
};

}  // namespace sluice
