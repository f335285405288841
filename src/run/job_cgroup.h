#pragma once
// fio's cgroup=, cgroup_weight= and cgroup_nodelete for one job: its worker thread joins the named cgroup
// of the blkio controller (made when missing, as fio: NAME under the controller's mount, or the job's name
// when only cgroup_weight is given), so the controller's throttles and weights set on that cgroup apply to
// the job's I/O alone. cgroup v1's blkio places single threads (its "tasks" file), which is what fio does
// with thread=1 (it writes the thread's id there); cgroup v2 places whole processes and its io controller
// is not threaded, so with cgroup v2 alone a job cannot have a cgroup of its own: refused (run sluice itself
// in the cgroup instead). At the end the thread goes back to the cgroup it came from (fio: to the root),
// and a cgroup sluice made is removed by the last job that leaves it, unless cgroup_nodelete.
#include <string>

#include "job/placement_options.h"

namespace sluice {

// Whether the job asks for a cgroup.
inline bool uses_cgroup(const PlacementOptions& placement) {
  return !placement.cgroup.empty() || placement.cgroup_weight != 0;
}

// Before anything runs: throws UserError when the job's cgroup cannot be had here (no blkio controller of
// cgroup v1 mounted; cgroup v2 alone; a name that is not a plain path below the controller). job_name: the
// cgroup's name when cgroup= is not given, and the messages'.
void check_cgroup_support(const PlacementOptions& placement, const std::string& job_name);

// The calling thread's membership of the job's cgroup, for the job's run.
class JobCgroup {
 public:
  // Makes the cgroup when missing, sets cgroup_weight, moves the calling thread in. Throws std::runtime_error
  // with fio's kind of message ("cgroup mkdir", "cgroup write pid", ...) and the reason.
  JobCgroup(const PlacementOptions& placement, const std::string& job_name);
  // Moves the thread back to its cgroup; the last job out removes a cgroup sluice made (not cgroup_nodelete).
  ~JobCgroup();
  JobCgroup(const JobCgroup&) = delete;
  JobCgroup& operator=(const JobCgroup&) = delete;

  const std::string& path() const noexcept { return path_; }

 private:
  std::string path_;      // the job's cgroup directory
  std::string previous_;  // the directory of the cgroup the thread was in
  bool keep_ = false;     // cgroup_nodelete
};

}  // namespace sluice
