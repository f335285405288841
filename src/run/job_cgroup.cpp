// fio's cgroup options for a worker thread (job_cgroup.h).
#include "run/job_cgroup.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "common/error.h"

namespace sluice {
namespace {

struct Controller {
  std::string mount;  // where the blkio hierarchy is mounted; empty when none
  bool v2_only = false;
};

// As fio's find_cgroup_mnt: the first mount in /proc/mounts that is cgroup v1 with blkio, or cgroup v2.
Controller find_blkio() {
  std::ifstream mounts("/proc/mounts");
  std::string line;
  while (std::getline(mounts, line)) {
    std::istringstream fields(line);
    std::string device, dir, type, options;
    if (!(fields >> device >> dir >> type >> options)) continue;
    if (type == "cgroup") {
      std::istringstream list(options);
      for (std::string option; std::getline(list, option, ',');) {
        if (option == "blkio") return {dir, false};
      }
    }
    if (type == "cgroup2") return {"", true};
  }
  return {};
}

std::string cgroup_name(const PlacementOptions& placement, const std::string& job_name) {
  return placement.cgroup.empty() ? job_name : placement.cgroup;
}

// The cgroup's directory; throws UserError for a name that would leave the controller's hierarchy.
std::string cgroup_dir(const Controller& c, const PlacementOptions& placement, const std::string& job_name) {
  const std::string name = cgroup_name(placement, job_name);
  if (name.empty() || name.front() == '/' || name == ".." || name.find("../") != std::string::npos ||
      name.ends_with("/..")) {
    throw UserError(
        fmt::format("job {}: cgroup={}: a cgroup is a path below the blkio controller's mount ({}), "
                    "without a leading / or ..",
                    job_name, name, c.mount));
  }
  return c.mount + "/" + name;
}

pid_t thread_id() { return static_cast<pid_t>(::syscall(SYS_gettid)); }

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

void write_value(const std::string& dir, const char* file, std::uint64_t value, const char* what) {
  const std::string path = dir + "/" + file;
  std::ofstream out(path);
  out << value;
  out.flush();
  if (!out) throw std::runtime_error(fmt::format("{}: writing {} to {}: {}", what, value, path, std::strerror(errno)));
}

// The blkio cgroup the calling thread is in, as a directory under the mount.
std::string current_cgroup(const std::string& mount) {
  std::ifstream in("/proc/thread-self/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    const std::size_t first = line.find(':');
    const std::size_t second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    std::istringstream list(line.substr(first + 1, second - first - 1));
    for (std::string controller; std::getline(list, controller, ',');) {
      if (controller == "blkio") return mount + (line.substr(second + 1) == "/" ? "" : line.substr(second + 1));
    }
  }
  return mount;
}

// The jobs in each cgroup sluice uses, and whether sluice made it (the last one out removes it).
struct Membership {
  int jobs = 0;
  bool made = false;
};
std::mutex members_mutex;
std::map<std::string, Membership> members;

}  // namespace

void check_cgroup_support(const PlacementOptions& placement, const std::string& job_name) {
  if (!uses_cgroup(placement)) return;
  const Controller c = find_blkio();
  if (c.v2_only) {
    throw UserError(fmt::format(
        "job {}: cgroup={}: only cgroup v2 is mounted here, which places whole processes, and its io controller "
        "does not place threads; sluice runs every job as a thread of one process, so a job cannot have a "
        "cgroup of its own (run sluice itself in the cgroup instead, e.g. systemd-run --scope -p IOWeight=N)",
        job_name, cgroup_name(placement, job_name)));
  }
  if (c.mount.empty()) {
    throw UserError(
        fmt::format("job {}: cgroup={}: no cgroup blkio controller is mounted (fio: \"cgroup blkio "
                    "does not appear to be mounted\")",
                    job_name, cgroup_name(placement, job_name)));
  }
  (void)cgroup_dir(c, placement, job_name);
}

JobCgroup::JobCgroup(const PlacementOptions& placement, const std::string& job_name)
    : keep_(placement.cgroup_nodelete) {
  const Controller c = find_blkio();
  if (c.mount.empty()) throw std::runtime_error("cgroup: no cgroup v1 blkio controller is mounted");
  path_ = cgroup_dir(c, placement, job_name);
  previous_ = current_cgroup(c.mount);
  {
    std::lock_guard lock(members_mutex);
    Membership& m = members[path_];
    if (::mkdir(path_.c_str(), 0755) == 0) {
      m.made = true;
    } else if (errno != EEXIST) {
      const int error = errno;
      if (m.jobs == 0) members.erase(path_);
      throw std::runtime_error(fmt::format("cgroup mkdir {}: {}", path_, std::strerror(error)));
    }
    ++m.jobs;
  }
  try {
    if (placement.cgroup_weight != 0) {
      // blkio.weight was CFQ's; since CFQ's removal only the bfq scheduler has a weight (blkio.bfq.weight).
      const char* file = exists(path_ + "/blkio.weight")       ? "blkio.weight"
                         : exists(path_ + "/blkio.bfq.weight") ? "blkio.bfq.weight"
                                                               : nullptr;
      if (file == nullptr) {
        throw std::runtime_error(fmt::format(
            "cgroup_weight={}: {} has neither blkio.weight nor blkio.bfq.weight: this kernel weighs blkio cgroups "
            "only with the bfq I/O scheduler (fio 3.33 writes blkio.weight and fails the same way)",
            placement.cgroup_weight, path_));
      }
      write_value(path_, file, placement.cgroup_weight, "cgroup_weight");
    }
    write_value(path_, "tasks", static_cast<std::uint64_t>(thread_id()), "cgroup write pid");
  } catch (...) {
    std::lock_guard lock(members_mutex);
    Membership& m = members[path_];
    if (--m.jobs == 0) {
      if (m.made && !keep_) ::rmdir(path_.c_str());
      members.erase(path_);
    }
    throw;
  }
}

JobCgroup::~JobCgroup() {
  std::ofstream(previous_ + "/tasks") << thread_id();
  std::lock_guard lock(members_mutex);
  Membership& m = members[path_];
  if (--m.jobs > 0) return;
  if (m.made && !keep_) ::rmdir(path_.c_str());
  members.erase(path_);
}

}  // namespace sluice
