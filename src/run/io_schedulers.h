#pragma once
// fio's ioscheduler=: each job asks for an io scheduler on the block devices under its files. The runner
// checks every group's requests before anything runs (root, a scheduler the device offers, one scheduler per
// device in a group) and sets them for each group's run through a KnobSession, which journals the original
// before writing and writes it back when the group ends (or, after a crash, at the next sluice start). fio sets
// the scheduler and leaves it; sluice gives the device its own back.
#include <memory>
#include <string>
#include <vector>

#include "observe/knobs.h"
#include "targets/target_file.h"

namespace sluice {

struct GroupPlan;  // run/plan.h

struct SchedulerRequest {
  std::string device;     // "vda", "loop3": the whole disk under a job's files
  std::string scheduler;  // "mq-deadline"
  std::string job;        // the first job that asked, for messages
};

// The group's requests, one per device. Throws UserError when two jobs ask for different schedulers on one
// device. `sys_root` is for tests.
std::vector<SchedulerRequest> scheduler_requests(const GroupPlan& group,
                                                 const std::vector<std::vector<TargetFile>>& targets,
                                                 const std::string& sys_root = "/sys");

// Throws UserError naming the job, the device and what it offers when a device does not offer the scheduler,
// or when sluice is not root. Nothing is written.
void check_scheduler_requests(const std::vector<SchedulerRequest>& requests, const KnobRoots& roots = {});

// Sets the requests while alive and restores the devices' schedulers when destroyed.
class GroupSchedulers {
 public:
  explicit GroupSchedulers(const std::vector<SchedulerRequest>& requests, KnobSessionOptions options = {});
  ~GroupSchedulers();
  GroupSchedulers(const GroupSchedulers&) = delete;
  GroupSchedulers& operator=(const GroupSchedulers&) = delete;

 private:
  std::unique_ptr<KnobSession> session_;
};

}  // namespace sluice
