#include "run/io_schedulers.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <map>

#include "common/error.h"
#include "observe/disk_stats.h"
#include "run/plan.h"

namespace sluice {

std::vector<SchedulerRequest> scheduler_requests(const GroupPlan& group,
                                                 const std::vector<std::vector<TargetFile>>& targets,
                                                 const std::string& sys_root) {
  std::vector<SchedulerRequest> requests;
  std::map<std::string, std::size_t> by_device;
  for (std::size_t i = 0; i < group.jobs.size() && i < targets.size(); ++i) {
    const JobSpec& job = group.jobs[i].spec;
    if (job.target.ioscheduler.empty()) continue;
    std::vector<std::string> paths;
    for (const TargetFile& t : targets[i]) {
      if (!t.stand_in) paths.push_back(t.path);
    }
    for (const std::string& device : devices_under(paths, sys_root)) {
      const auto [it, added] = by_device.emplace(device, requests.size());
      if (added) {
        requests.push_back({device, job.target.ioscheduler, job.name});
      } else if (requests[it->second].scheduler != job.target.ioscheduler) {
        const SchedulerRequest& first = requests[it->second];
        throw UserError(
            fmt::format("job {}: ioscheduler={} on {}, where job {} of the same group asks for {}; one "
                        "device has one scheduler at a time",
                        job.name, job.target.ioscheduler, device, first.job, first.scheduler));
      }
    }
  }
  return requests;
}

void check_scheduler_requests(const std::vector<SchedulerRequest>& requests, const KnobRoots& roots) {
  if (requests.empty()) return;
  if (::geteuid() != 0) {
    throw UserError(fmt::format("job {}: ioscheduler={} changes /sys/block/{}/queue/scheduler, which needs root",
                                requests.front().job, requests.front().scheduler, requests.front().device));
  }
  FileKnobIo io;
  for (const SchedulerRequest& r : requests) {
    const std::string path = knob_path("queue.scheduler", r.device, roots);
    std::string text;
    try {
      text = io.read(path);
    } catch (const UserError& e) {
      throw UserError(fmt::format("job {}: ioscheduler={}: {}", r.job, r.scheduler, e.what()));
    }
    const std::vector<std::string> offered = scheduler_choices(text);
    if (std::find(offered.begin(), offered.end(), r.scheduler) == offered.end()) {
      throw UserError(
          fmt::format("job {}: ioscheduler={}: {} offers {}", r.job, r.scheduler, r.device, fmt::join(offered, ", ")));
    }
  }
}

GroupSchedulers::GroupSchedulers(const std::vector<SchedulerRequest>& requests, KnobSessionOptions options) {
  if (requests.empty()) return;
  session_ = std::make_unique<KnobSession>(std::move(options));
  for (const SchedulerRequest& r : requests) session_->set("queue.scheduler", r.scheduler, r.device);
}

GroupSchedulers::~GroupSchedulers() {
  if (!session_) return;
  for (const std::string& failure : session_->restore_all()) {
    std::fprintf(stderr, "sluice: ioscheduler: %s\n", failure.c_str());
  }
}

}  // namespace sluice
