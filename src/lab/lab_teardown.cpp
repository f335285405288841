// sluice lab down / list and the labs part of sluice restore (see lab/lab_device.h).
#include <fmt/format.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>

#include "common/durable_files.h"
#include "lab/lab_device.h"
#include "lab/lab_system.h"
#include "observe/lab_resources.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;

constexpr std::chrono::milliseconds kDaemonStopLimit{5000};
constexpr std::chrono::milliseconds kDaemonKillLimit{2000};

bool inside(const std::string& path, const std::string& dir) { return path.starts_with(dir + "/"); }

// The loop devices over the lab's file: found by their backing file, so one attached just before a kill (before
// its line in the record) is found too. Never another device.
std::vector<std::string> lab_loop_devices(const LabRecord& r) {
  std::vector<std::string> devices;
  for (const LoopDeviceInfo& loop : attached_loop_devices()) {
    if (loop.backing_file == r.device_file() || inside(loop.backing_file, r.fuse_mount())) {
      devices.push_back(loop.device);
    }
  }
  return devices;
}

bool daemon_alive(const LabRecord& r) { return r.daemon_pid > 0 && process_is(r.daemon_pid, r.daemon_start); }

// Unmounts DIR when what is mounted there is one of the lab's loop devices. False when that failed and the
// teardown must stop (DIR busy, not restoring).
bool unmount_dir(const LabRecord& r, const std::vector<std::string>& loops, bool restoring, LabTeardown& t) {
  if (r.fs == "fuse") return true;
  const std::optional<MountEntry> m = mount_at(r.mountpoint);
  if (!m || std::find(loops.begin(), loops.end(), m->source) == loops.end()) return true;
  if (::umount2(r.mountpoint.c_str(), 0) == 0) {
    t.done.push_back("unmounted " + r.mountpoint);
    return true;
  }
  const std::string why = errno_text();
  if (errno == EBUSY && restoring && ::umount2(r.mountpoint.c_str(), MNT_DETACH) == 0) {
    t.done.push_back(fmt::format("detached {} lazily (busy: a process still has files open there)", r.mountpoint));
    return true;
  }
  t.failures.push_back(
      fmt::format("cannot unmount {}: {}{}", r.mountpoint, why,
                  errno == EBUSY ? " (a process has files open there: fuser -vm " + r.mountpoint + ")" : ""));
  return false;
}

void stop_daemon(const LabRecord& r, LabTeardown& t) {
  if (r.daemon_pid <= 0) return;
  if (!daemon_alive(r)) {
    ::waitpid(r.daemon_pid, nullptr, WNOHANG);
    return;
  }
  if (signal_and_wait(r.daemon_pid, r.daemon_start, SIGTERM, kDaemonStopLimit)) {
    t.done.push_back(fmt::format("stopped the daemon (pid {})", r.daemon_pid));
  } else if (signal_and_wait(r.daemon_pid, r.daemon_start, SIGKILL, kDaemonKillLimit)) {
    t.done.push_back(fmt::format("killed the daemon (pid {}; SIGTERM was not enough)", r.daemon_pid));
  } else {
    t.failures.push_back(fmt::format("the daemon (pid {}) does not end", r.daemon_pid));
  }
}

// The daemon's filesystem, still mounted when the daemon is gone (killed) or was never recorded.
void unmount_fuse(const LabRecord& r, LabTeardown& t) {
  const std::optional<MountEntry> m = mount_at(r.fuse_mount());
  if (!m || m->fstype.find("sluice-lab") == std::string::npos) return;
  // Nothing may wait on a daemon that is gone: abort its connection (every request fails at once) first.
  const std::string aborted = abort_fuse_connection(m->minor);
  if (!aborted.empty()) t.failures.push_back("cannot abort the daemon's FUSE connection: " + aborted);
  if (::umount2(r.fuse_mount().c_str(), MNT_DETACH) == 0) {
    t.done.push_back("unmounted the daemon's filesystem at " + r.fuse_mount());
    return;
  }
  std::string output;
  if (run_tool({"fusermount3", "-u", "-z", r.fuse_mount()}, output, std::chrono::seconds(10)) == 0) {
    t.done.push_back("unmounted the daemon's filesystem at " + r.fuse_mount());
  } else {
    t.failures.push_back(fmt::format("cannot unmount {}: {}", r.fuse_mount(), output));
  }
}

// Whether `r.dir` is the lab's own directory: beside the record in the registry, or (lab up --state-dir)
// elsewhere under the record's own name (lab.PID.TIME). Anything else in a record (edited by hand) is not removed.
bool own_directory(const LabRecord& r, const std::string& registry) {
  if (inside(r.dir, registry)) return true;
  const std::string record_name = fs::path(r.file).filename().string();
  const std::string dir_name = fs::path(r.dir).filename().string();
  return dir_name.starts_with("lab.") && record_name.starts_with(dir_name + ".lab");
}

void remove_files(const LabRecord& r, LabTeardown& t) {
  const std::string registry = directory_of(r.file);
  std::error_code ec;
  if (own_directory(r, registry) && fs::exists(r.dir, ec)) {
    if (mount_at(r.fuse_mount()) && r.fs != "fuse") {
      t.failures.push_back(r.fuse_mount() + " is still mounted; its directory is kept");
      return;
    }
    fs::remove_all(r.dir, ec);
    if (ec) {
      t.failures.push_back(fmt::format("cannot remove {}: {}", r.dir, ec.message()));
      return;
    }
    t.done.push_back("removed " + r.dir + " (the backing file and the daemon's log)");
  }
  if (::unlink(r.file.c_str()) != 0 && errno != ENOENT) {
    t.failures.push_back(fmt::format("cannot remove the record {}: {}", r.file, errno_text()));
    return;
  }
  try_fsync_directory(registry);
}

}  // namespace

LabTeardown take_lab_down(const LabRecord& r, bool restoring) {
  LabTeardown t;
  if (!daemon_alive(r) && r.fuse_connection) {
    // Before anything that may touch the device: with the daemon gone, a request must fail, not wait.
    const std::optional<MountEntry> m = mount_at(r.fuse_mount());
    if (m && m->minor == *r.fuse_connection) {
      const std::string why = abort_fuse_connection(*r.fuse_connection);
      if (why.empty()) {
        t.done.push_back(fmt::format("aborted the dead daemon's FUSE connection {}", *r.fuse_connection));
      } else {
        t.failures.push_back(why);
      }
    }
  }
  const std::vector<std::string> loops = lab_loop_devices(r);
  if (!unmount_dir(r, loops, restoring, t)) return t;
  for (const std::string& loop : loops) {
    const std::string why = detach_loop_device(loop);
    const std::vector<LoopDeviceInfo> after = attached_loop_devices();
    const bool still =
        std::any_of(after.begin(), after.end(), [&](const LoopDeviceInfo& l) { return l.device == loop; });
    if (why.empty() && still) {
      // The kernel defers the detach of a loop device still open elsewhere (autoclear) until it is closed.
      t.done.push_back(fmt::format("{} is still open elsewhere: it detaches when the last user closes it", loop));
    } else if (why.empty()) {
      t.done.push_back("detached " + loop);
    } else {
      t.failures.push_back(why);
    }
  }
  stop_daemon(r, t);
  unmount_fuse(r, t);
  if (t.failures.empty()) remove_files(r, t);
  return t;
}

std::vector<LabStatus> list_labs(std::vector<std::string>& problems, const std::vector<std::string>& dirs) {
  std::vector<LabStatus> labs;
  for (LabRecord& r : read_lab_records(dirs, problems)) {
    const bool up_alive = process_is(r.up_pid, r.up_start);
    const LabState state = classify_lab(r, up_alive, daemon_alive(r));
    labs.push_back({std::move(r), state});
  }
  std::sort(labs.begin(), labs.end(),
            [](const LabStatus& a, const LabStatus& b) { return a.record.mountpoint < b.record.mountpoint; });
  return labs;
}

const LabStatus* find_lab(const std::vector<LabStatus>& labs, const std::string& mountpoint) {
  std::error_code ec;
  fs::path path = fs::weakly_canonical(fs::absolute(mountpoint, ec), ec);
  std::string wanted = path.lexically_normal().string();
  while (wanted.size() > 1 && wanted.back() == '/') wanted.pop_back();
  for (const LabStatus& lab : labs) {
    if (lab.record.mountpoint == wanted) return &lab;
  }
  return nullptr;
}

LabRestoreReport restore_dead_labs(const std::vector<std::string>& dirs) {
  LabRestoreReport report;
  std::vector<std::string> problems;
  for (const LabStatus& lab : list_labs(problems, dirs)) {
    if (lab.state == LabState::kUp || lab.state == LabState::kStarting) continue;
    const LabRecord& r = lab.record;
    const LabTeardown t = take_lab_down(r, true);
    const std::string why = lab.state == LabState::kDaemonGone
                                ? fmt::format("its daemon, pid {}, was gone", r.daemon_pid)
                                : fmt::format("sluice lab up, pid {}, was killed", r.up_pid);
    std::string done;
    for (const std::string& d : t.done) done += (done.empty() ? "" : "; ") + d;
    if (t.failures.empty()) {
      report.removed.push_back(fmt::format("removed the lab at {} (model {}; {}): {}", r.mountpoint, r.model, why,
                                           done.empty() ? "nothing was left" : done));
    }
    for (const std::string& f : t.failures) {
      report.failures.push_back(fmt::format("the lab at {} ({}): {}", r.mountpoint, r.file, f));
    }
  }
  for (const std::string& p : problems) report.failures.push_back(p);
  for (const LabRecord& draft : read_lab_record_drafts(dirs)) {
    const bool up_alive =
        draft.up_start != 0 ? process_is(draft.up_pid, draft.up_start) : process_start_ticks(draft.up_pid).has_value();
    if (up_alive) continue;
    if (::unlink(draft.file.c_str()) == 0) {
      report.removed.push_back(fmt::format("removed {} (sluice lab up, pid {}, was killed before it made anything)",
                                           draft.file, draft.up_pid));
    }
  }
  return report;
}

}  // namespace sluice
