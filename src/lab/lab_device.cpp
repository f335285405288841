// sluice lab up: the model block device (see lab/lab_device.h).
#include "lab/lab_device.h"

#include <fmt/format.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "common/durable_files.h"
#include "common/error.h"
#include "common/stop_signal.h"
#include "lab/lab_daemon.h"
#include "lab/lab_system.h"
#include "lab/truth.h"
#include "observe/lab_resources.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;

constexpr std::uint64_t kMinXfsBytes = std::uint64_t{300} << 20;  // mkfs.xfs refuses smaller (xfsprogs 5.19+)
constexpr std::chrono::seconds kDaemonStartLimit{10};
constexpr std::chrono::seconds kMkfsLimit{600};

std::string size_text(std::uint64_t bytes) {
  if (bytes % (std::uint64_t{1} << 30) == 0) return fmt::format("{} GiB", bytes >> 30);
  if (bytes % (std::uint64_t{1} << 20) == 0) return fmt::format("{} MiB", bytes >> 20);
  return fmt::format("{:.2f} GiB", static_cast<double>(bytes) / static_cast<double>(std::uint64_t{1} << 30));
}

// DIR as an absolute canonical path, checked: an existing empty directory, not a mount point, no lab there.
std::string checked_mountpoint(const std::string& dir) {
  std::error_code ec;
  const fs::path canonical = fs::canonical(dir, ec);
  if (ec) throw UserError(fmt::format("{}: {} (DIR must be an existing empty directory)", dir, ec.message()));
  if (!fs::is_directory(canonical, ec)) throw UserError(fmt::format("{}: not a directory (DIR)", dir));
  if (!fs::is_empty(canonical, ec) || ec) {
    throw UserError(
        fmt::format("{}: not empty; the lab mounts on an empty directory and never touches what is "
                    "in yours",
                    dir));
  }
  if (mount_at(canonical.string())) {
    throw UserError(fmt::format("{}: something is mounted there already (DIR must be an empty directory)", dir));
  }
  return canonical.string();
}

// Whether the loop device path can be used: root and /dev/loop-control, unless the tests' hook says not.
std::string why_no_loop() {
  const char* hook = std::getenv("SLUICE_LAB_WITHOUT_LOOP");
  if (hook && *hook && std::string(hook) != "0") return "SLUICE_LAB_WITHOUT_LOOP is set";
  if (::geteuid() != 0) return "not root";
  if (::access("/dev/loop-control", R_OK | W_OK) != 0) return "/dev/loop-control: " + errno_text();
  return "";
}

void check_space(const std::string& registry, std::uint64_t size) {
  struct statvfs st {};
  if (::statvfs(registry.c_str(), &st) != 0) throw UserError(fmt::format("{}: {}", registry, errno_text()));
  const std::uint64_t free_bytes = static_cast<std::uint64_t>(st.f_bavail) * st.f_frsize;
  if (free_bytes < size) {
    throw UserError(
        fmt::format("lab: the backing file needs {} and {} has {} free (give a smaller --size, or "
                    "set SLUICE_STATE_DIR to a place with room)",
                    size_text(size), registry, size_text(free_bytes)));
  }
}

// --state-dir: an existing directory sluice can write, made absolute (the daemon runs elsewhere).
std::string checked_state_dir(const std::string& dir) {
  std::error_code ec;
  const fs::path canonical = fs::canonical(dir, ec);
  if (ec || !fs::is_directory(canonical, ec)) {
    throw UserError(fmt::format("lab up: --state-dir={}: not an existing directory", dir));
  }
  if (::access(canonical.c_str(), W_OK | X_OK) != 0) {
    throw UserError(fmt::format("lab up: --state-dir={}: {}", dir, errno_text()));
  }
  return canonical.string();
}

std::string log_tail(const std::string& log) {
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  std::string s = text.str();
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s.size() > 2000 ? s.substr(s.size() - 2000) : s;
}

// Waits until the daemon's filesystem is mounted at `where`. Returns the FUSE connection id (the mount's minor). Throws
// UserError when the daemon ends first.
unsigned wait_for_daemon(pid_t pid, const std::string& where, const std::string& log) {
  const auto deadline = std::chrono::steady_clock::now() + kDaemonStartLimit;
  while (std::chrono::steady_clock::now() < deadline) {
    const std::optional<MountEntry> m = mount_at(where);
    if (m && m->fstype.find("sluice-lab") != std::string::npos) return m->minor;
    if (!process_start_ticks(pid)) {
      throw UserError(fmt::format("lab: the daemon ended before it served the device:\n{}", log_tail(log)));
    }
    if (stop_requested()) throw UserError("lab up: interrupted");
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  throw UserError(fmt::format("lab: the daemon did not mount {} within {} s:\n{}", where, kDaemonStartLimit.count(),
                              log_tail(log)));
}

void make_filesystem(const std::string& fstype, const std::string& device) {
  // No discard (it would reach the model as requests) and no lazy initialization: ext4's background
  // zeroing of inode tables and journal would be load on the model during the user's measurements.
  const std::vector<std::string> argv =
      fstype == "xfs" ? std::vector<std::string>{"mkfs.xfs", "-q", "-f", "-K", device}
                      : std::vector<std::string>{
                            "mkfs.ext4", "-q", "-F", "-E", "nodiscard,lazy_itable_init=0,lazy_journal_init=0", device};
  std::string output;
  const int code = run_tool(argv, output, kMkfsLimit);
  if (code != 0) {
    throw UserError(fmt::format("lab: {} {} failed ({}):\n{}", argv[0], device,
                                code < 0 ? "killed" : fmt::format("exit status {}", code), output));
  }
}

// What the model argument means to a daemon started elsewhere: a preset's name, or a file's absolute path.
std::string daemon_model_argument(const std::string& model_arg) {
  std::error_code ec;
  if (model_arg.find('/') == std::string::npos && !fs::exists(model_arg, ec)) return model_arg;
  return fs::absolute(model_arg, ec).string();
}

struct Preflight {
  std::string mountpoint;
  std::string no_loop;  // why there is no loop device; "" when there is
  std::string registry;
  std::string state_dir;  // the parent of the lab's own directory: --state-dir, else the registry
  std::string executable;
};

Preflight check_before_creating(const LabUpOptions& o) {
  Preflight p;
  if (!lab_daemon_available()) throw UserError("lab: this sluice was built without libfuse3 (no lab daemon)");
  if (::access("/dev/fuse", R_OK | W_OK) != 0) {
    throw UserError(
        fmt::format("lab: /dev/fuse: {}; the lab daemon needs FUSE (modprobe fuse; in a container, "
                    "--device /dev/fuse)",
                    errno_text()));
  }
  if (o.size < (std::uint64_t{1} << 20) || o.size % 4096 != 0) {
    throw UserError(fmt::format("lab up: --size={}: at least 1 MiB and a multiple of 4 KiB", o.size));
  }
  p.mountpoint = checked_mountpoint(o.mountpoint);
  std::vector<std::string> problems;
  for (const LabRecord& r : read_lab_records(lab_registry_dirs(), problems)) {
    if (r.mountpoint == p.mountpoint) {
      throw UserError(fmt::format("{}: a lab is recorded there already ({}); sluice lab down {} or sluice restore",
                                  o.mountpoint, r.file, o.mountpoint));
    }
  }
  p.no_loop = why_no_loop();
  if (p.no_loop.empty() && o.fs != "none" && find_tool("mkfs." + o.fs).empty()) {
    throw UserError(
        fmt::format("lab up: --fs={} needs mkfs.{}, which is not installed (or use --fs=none)", o.fs, o.fs));
  }
  if (p.no_loop.empty() && o.fs == "xfs" && o.size < kMinXfsBytes) {
    throw UserError(fmt::format("lab up: --fs=xfs needs --size of at least 300m (mkfs.xfs refuses smaller)"));
  }
  p.executable = own_executable();
  if (p.executable.empty()) throw UserError("lab: cannot find sluice's own executable to start the daemon");
  p.registry = writable_lab_registry();
  p.state_dir = o.state_dir.empty() ? p.registry : checked_state_dir(o.state_dir);
  check_space(p.state_dir, o.size);
  return p;
}

// Measures the path on `device` and has the daemon absorb it. The daemon answers each read after the model's
// own 4 KiB read time at depth 1 (up to 2 ms: beyond, an idle CPU is as idle as it gets), so the CPUs idle
// between requests as they will under the model.
PathMeasurement compensate_path(const ModelSpec& model, const LabRecord& r, const std::string& device) {
  ModelSpec served = model;
  served.resize(r.size);
  std::chrono::nanoseconds delay{0};
  for (const TruthRow& row : compute_truth(served).rows) {
    if (row.what == "depth" && row.rw == "randread" && row.bs == 4096 && row.iodepth == 1) {
      delay = std::chrono::duration_cast<std::chrono::nanoseconds>(row.mean_latency);
    }
  }
  delay = std::min<std::chrono::nanoseconds>(delay, std::chrono::milliseconds(2));
  const std::string control = r.fuse_mount() + "/control";
  const PathMeasurement path = measure_path(device, control, r.size, delay);
  set_path_compensation(control, path.median);  // robust to a burst of other work during the measurement
  return path;
}

}  // namespace

PathMeasurement recalibrate_path(const LabRecord& record, const ModelSpec& model) {
  return compensate_path(model, record, record.device());
}

namespace {

// The steps after the record exists; each appends to the record before it creates.
void build_lab(const LabUpOptions& o, const Preflight& p, LabJournal& journal, LabRecord& r, LabUpResult& result) {
  fs::create_directory(r.dir);
  if (r.fs != "fuse") fs::create_directory(r.fuse_mount());
  const std::string log = r.dir + "/daemon.log";
  // The child records itself (pid and start time) before it execs the daemon: lab up may be killed at any
  // moment after the fork, and the daemon must not outlive it unrecorded.
  const auto record_child = [&journal] {
    try {
      const pid_t self = ::getpid();
      journal.append("daemon", fmt::format("{} {}", self, process_start_ticks(self).value_or(0)));
      return true;
    } catch (const std::exception&) {
      return false;
    }
  };
  const pid_t pid = spawn_detached({p.executable, "lab", "serve", daemon_model_argument(o.model_arg), r.fuse_mount(),
                                    "--backing=" + r.dir + "/backing", "--size=" + std::to_string(o.size),
                                    "--force"},  // lab up checked the model's range itself
                                   log, record_child);
  r.daemon_pid = pid;
  r.daemon_start = process_start_ticks(pid).value_or(0);  // a pid's start time is the fork's, exec keeps it
  r.fuse_connection = wait_for_daemon(pid, r.fuse_mount(), log);
  journal.append("fuse", std::to_string(*r.fuse_connection));
  if (r.fs == "fuse") {
    if (o.compensate) result.path = compensate_path(o.model, r, r.device_file());
    return;
  }
  bool direct_io = false;
  r.loop_device = attach_loop_device(r.device_file(), direct_io);
  journal.append("loop", r.loop_device);
  if (!direct_io) {
    result.note = fmt::format(
        "{} runs without direct I/O (the kernel refused it): requests to the model are "
        "serialized by the loop driver",
        r.loop_device);
  }
  if (o.compensate) result.path = compensate_path(o.model, r, r.loop_device);
  if (r.fs == "none") return;
  if (stop_requested()) throw UserError("lab up: interrupted");
  make_filesystem(r.fs, r.loop_device);
  journal.append("mount");
  r.mounting = true;
  if (::mount(r.loop_device.c_str(), r.mountpoint.c_str(), r.fs.c_str(), 0, nullptr) != 0) {
    throw UserError(
        fmt::format("lab: cannot mount {} ({}) at {}: {}", r.loop_device, r.fs, r.mountpoint, errno_text()));
  }
}

}  // namespace

LabUpResult lab_up(const LabUpOptions& options) {
  install_stop_signal_handlers();  // Ctrl-C takes apart what was made, then ends
  const Preflight p = check_before_creating(options);
  LabUpResult result;
  LabRecord& r = result.record;
  r.up_pid = ::getpid();
  r.up_start = process_start_ticks(r.up_pid).value_or(0);
  r.mountpoint = p.mountpoint;
  r.model = options.model_arg;
  r.fs = p.no_loop.empty() ? options.fs : "fuse";
  r.size = options.size;
  const std::string id =
      fmt::format("lab.{}.{}", r.up_pid, std::chrono::steady_clock::now().time_since_epoch().count());
  r.dir = p.state_dir + "/" + id;
  LabJournal journal(p.registry, id,
                     {{"up", fmt::format("{} {}", r.up_pid, r.up_start)},
                      {"mountpoint", r.mountpoint},
                      {"dir", r.dir},
                      {"model", r.model},
                      {"fs", r.fs},
                      {"size", std::to_string(r.size)}});
  r.file = journal.path();
  try {
    build_lab(options, p, journal, r, result);
    journal.append("ready");
    r.ready = true;
  } catch (const std::exception& e) {
    const LabTeardown undone = take_lab_down(r, true);
    std::string message = e.what();
    for (const std::string& f : undone.failures) message += "\n  and could not undo: " + f;
    if (!undone.failures.empty()) message += "\n  (sluice restore tries again; the record is " + r.file + ")";
    throw UserError(message);
  }
  if (!p.no_loop.empty()) {
    result.note = fmt::format(
        "no loop device ({}): {} is the model's file served through FUSE, with no block layer under it: no "
        "filesystem was made, and there is no page cache of a device, I/O scheduler or writeback throttling; "
        "every request to the file reaches the model (the daemon serves it with direct I/O), through FUSE alone",
        p.no_loop, r.device_file());
  }
  return result;
}

}  // namespace sluice
