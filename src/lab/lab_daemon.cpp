// The lab daemon on libfuse3's low-level API (see lab/lab_daemon.h); without libfuse3 (SLUICE_HAVE_FUSE3
// unset by CMakeLists.txt) only a refusal.
#include "lab/lab_daemon.h"

#include "common/error.h"

#ifdef SLUICE_HAVE_FUSE3
#define FUSE_USE_VERSION 314
#include <fcntl.h>
#include <fmt/format.h>
#include <fuse3/fuse_lowlevel.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lab/lab_control.h"
#include "lab/model_engine.h"
#include "lab/model_faults.h"
#include "lab/reply_scheduler.h"

namespace sluice {
namespace {

constexpr fuse_ino_t kRootInode = FUSE_ROOT_ID;
constexpr fuse_ino_t kDeviceInode = 2;
constexpr fuse_ino_t kStatsInode = 3;
constexpr fuse_ino_t kControlInode = 4;
constexpr const char* kDeviceName = "device";
constexpr const char* kStatsName = "stats";
constexpr const char* kControlName = "control";
constexpr unsigned kMaxRequestBytes = 1 << 20;  // so that a 1 MiB request reaches the model as one request
constexpr unsigned kMaxBackground = 1024;
// A timed wait wakes up to ~0.2 ms late on a busy virtual machine, within tens of microseconds in real time.
constexpr std::chrono::microseconds kSpin{300};
constexpr std::chrono::microseconds kRealtimeSpin{50};

// Replies leave on time on a busy machine: the daemon's threads (the FUSE workers, which stamp each request's
// arrival, and the reply scheduler) run under SCHED_FIFO at the lowest real-time priority when allowed (root,
// CAP_SYS_NICE), so a CPU hog beside the benchmark (a build, stress-ng) delays the kernel's path, not the
// model's replies. Set before any thread starts: they inherit it. The kernel's real-time throttling
// (sched_rt_runtime_us) keeps a core for everything else whatever the daemon does.
bool enter_realtime() {
  sched_param priority{};
  priority.sched_priority = 1;
  return ::sched_setscheduler(0, SCHED_FIFO, &priority) == 0;
}

// What the handlers share. The engine is behind a mutex (admission is short); the backing file's
// descriptor is used with pread/pwrite from every thread.
struct LabDaemon {
  LabDaemon(const ModelSpec& model, bool rt)
      : engine(model, [] { return ReplyScheduler::now_ns(); }),
        replies(std::make_unique<ReplyScheduler>(rt ? kRealtimeSpin : kSpin)),
        realtime(rt),
        faults(model.faults),
        start(ReplyScheduler::now_ns()),
        cache_mode(write_cache_name(model.write_cache)),
        cache_bytes(model.write_cache == WriteCacheMode::kNone ? 0 : model.cache_size_bytes) {}

  std::mutex engine_mutex;
  ModelEngine engine;
  std::unique_ptr<ReplyScheduler> replies;  // reset before the session ends
  bool realtime = false;                    // the daemon's threads run under SCHED_FIFO
  int fd = -1;
  std::uint64_t size = 0;
  std::string model_name;
  // Set through the control file (lab/lab_control.h): calibrate_ns >= 0, every request is answered that long
  // after its arrival and the model sees nothing (-1: the model serves); path_ns is the measured path's time,
  // by which replies leave before the model's time.
  std::atomic<std::int64_t> calibrate_ns{-1};
  std::atomic<std::int64_t> path_ns{0};
  // The model's fault rules (lab/model_faults.h), timed from the daemon's start.
  FaultInjector faults;
  std::chrono::nanoseconds start;
  // The model's cache as a device reports its own (ATA IDENTIFY, a SCSI caching page): the stats file says it.
  std::string cache_mode;
  std::uint64_t cache_bytes = 0;

  // What the fault rules do to a request that arrived at `arrival`; nothing while calibrating (the path's
  // measurement meets no fault, and counts no request towards after=).
  FaultDecision fault_for(FaultOp op, std::uint64_t offset, std::uint64_t bytes, std::chrono::nanoseconds arrival) {
    if (faults.empty() || calibrate_ns.load() >= 0) return {};
    return faults.decide(op, offset, bytes, arrival - start);
  }

  // Admits a request that arrived at `arrival` and returns when its reply is due: the model's time less the
  // path's (the kernel's way to the daemon and back, measured by lab up), never before the arrival.
  ReplyScheduler::Clock::time_point due(const ModelRequest& request, std::chrono::nanoseconds arrival) {
    std::lock_guard lock(engine_mutex);
    const ModelCompletion c = engine.admit_at(request, arrival);
    const std::chrono::nanoseconds reply = std::max(arrival, c.done - std::chrono::nanoseconds(path_ns.load()));
    return ReplyScheduler::Clock::time_point(std::chrono::duration_cast<ReplyScheduler::Clock::duration>(reply));
  }

  // Sends `reply` when `request` is due by the model (`stall` later: a fault), or while calibrating after the
  // calibration's delay.
  void answer(const ModelRequest& request, std::chrono::nanoseconds arrival, std::function<void()> reply,
              std::chrono::nanoseconds stall = std::chrono::nanoseconds(0)) {
    const std::int64_t calibrate = calibrate_ns.load();
    if (calibrate == 0) return reply();
    const auto at = calibrate > 0 ? arrival + std::chrono::nanoseconds(calibrate) : std::chrono::nanoseconds(-1);
    replies->schedule(
        calibrate > 0
            ? ReplyScheduler::Clock::time_point(std::chrono::duration_cast<ReplyScheduler::Clock::duration>(at))
            : due(request, arrival) + std::chrono::duration_cast<ReplyScheduler::Clock::duration>(stall),
        std::move(reply));
  }

  // Fails `request` with `error` (a fault) when its reply is due.
  void answer_error(fuse_req_t req, const ModelRequest& request, std::chrono::nanoseconds arrival, int error) {
    answer(request, arrival, [req, error] { fuse_reply_err(req, error); });
  }

  std::string stats_json() {
    std::lock_guard lock(engine_mutex);
    nlohmann::json ops = nlohmann::json::object();
    constexpr std::array<const char*, kModelOps> kNames = {"read", "write", "flush"};
    for (std::size_t i = 0; i < kModelOps; ++i) {
      const ModelOpStats& s = engine.stats()[i];
      ops[kNames[i]] = {{"count", s.count},
                        {"bytes", s.bytes},
                        {"queued_ns", s.queued.count()},
                        {"service_ns", s.service.count()},
                        {"total_ns", s.total.count()}};
    }
    nlohmann::json injected = nlohmann::json::array();
    const std::vector<std::uint64_t> fired = faults.fired();
    for (std::size_t i = 0; i < fired.size(); ++i) {
      injected.push_back({{"rule", faults.rules()[i].text}, {"fired", fired[i]}});
    }
    return nlohmann::json{{"model", model_name},
                          {"bytes_written", engine.bytes_written()},
                          {"path_ns", path_ns.load()},
                          {"realtime", realtime},
                          {"cache", {{"mode", cache_mode}, {"bytes", cache_bytes}}},
                          {"ops", ops},
                          {"faults", injected}}
               .dump(2) +
           "\n";
  }
};

LabDaemon& daemon_of(fuse_req_t req) { return *static_cast<LabDaemon*>(fuse_req_userdata(req)); }

struct stat attributes_of(const LabDaemon& d, fuse_ino_t ino) {
  struct stat st {};
  st.st_ino = ino;
  st.st_uid = ::getuid();
  st.st_gid = ::getgid();
  if (ino == kRootInode) {
    st.st_mode = S_IFDIR | 0755;
    st.st_nlink = 2;
  } else {
    st.st_mode = S_IFREG | (ino == kDeviceInode ? 0600 : ino == kControlInode ? 0200 : 0444);
    st.st_nlink = 1;
    st.st_size = ino == kDeviceInode ? static_cast<off_t>(d.size) : 0;
  }
  return st;
}

bool known_file(fuse_ino_t ino) { return ino == kDeviceInode || ino == kStatsInode || ino == kControlInode; }

void lab_init(void*, fuse_conn_info* conn) {
  conn->max_write = kMaxRequestBytes;
  conn->max_read = kMaxRequestBytes;
  conn->max_readahead = 0;
  // The kernel keeps at most max_background asynchronous requests outstanding (default 12): a model's queue
  // depth must not be capped by it.
  conn->max_background = kMaxBackground;
  conn->congestion_threshold = kMaxBackground * 3 / 4;
}

void lab_lookup(fuse_req_t req, fuse_ino_t parent, const char* name) {
  fuse_ino_t ino = 0;
  if (parent == kRootInode && std::strcmp(name, kDeviceName) == 0) ino = kDeviceInode;
  if (parent == kRootInode && std::strcmp(name, kStatsName) == 0) ino = kStatsInode;
  if (parent == kRootInode && std::strcmp(name, kControlName) == 0) ino = kControlInode;
  if (ino == 0) return static_cast<void>(fuse_reply_err(req, ENOENT));
  fuse_entry_param e{};
  e.ino = ino;
  e.attr = attributes_of(daemon_of(req), ino);
  e.attr_timeout = 1.0;
  e.entry_timeout = 1.0;
  fuse_reply_entry(req, &e);
}

void lab_getattr(fuse_req_t req, fuse_ino_t ino, fuse_file_info*) {
  if (ino != kRootInode && !known_file(ino)) return static_cast<void>(fuse_reply_err(req, ENOENT));
  const struct stat st = attributes_of(daemon_of(req), ino);
  fuse_reply_attr(req, &st, 1.0);
}

void lab_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, fuse_file_info*) {
  if (ino != kRootInode) return static_cast<void>(fuse_reply_err(req, ENOTDIR));
  const std::array<std::pair<const char*, fuse_ino_t>, 5> entries = {{{".", kRootInode},
                                                                      {"..", kRootInode},
                                                                      {kDeviceName, kDeviceInode},
                                                                      {kStatsName, kStatsInode},
                                                                      {kControlName, kControlInode}}};
  std::vector<char> buf(size);
  std::size_t used = 0;
  for (std::size_t i = static_cast<std::size_t>(off); i < entries.size(); ++i) {
    struct stat st = attributes_of(daemon_of(req), entries[i].second);
    const std::size_t n =
        fuse_add_direntry(req, buf.data() + used, size - used, entries[i].first, &st, static_cast<off_t>(i + 1));
    if (n > size - used) break;
    used += n;
  }
  fuse_reply_buf(req, buf.data(), used);
}

void lab_open(fuse_req_t req, fuse_ino_t ino, fuse_file_info* fi) {
  if (!known_file(ino)) return static_cast<void>(fuse_reply_err(req, ENOENT));
  if (ino == kStatsInode && (fi->flags & O_ACCMODE) != O_RDONLY) return static_cast<void>(fuse_reply_err(req, EACCES));
  if (ino == kControlInode && (fi->flags & O_ACCMODE) != O_WRONLY)
    return static_cast<void>(fuse_reply_err(req, EACCES));
  fi->direct_io = 1;  // every request reaches the model; the page cache belongs above the loop device
  fi->keep_cache = 0;
  fuse_reply_open(req, fi);
}

void lab_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, fuse_file_info*) {
  const std::chrono::nanoseconds arrival = ReplyScheduler::now_ns();
  LabDaemon& d = daemon_of(req);
  if (ino == kStatsInode) {
    const std::string text = d.stats_json();
    const std::size_t from = std::min(text.size(), static_cast<std::size_t>(off));
    fuse_reply_buf(req, text.data() + from, std::min(size, text.size() - from));
    return;
  }
  const auto offset = static_cast<std::uint64_t>(off);
  const FaultDecision fault = d.fault_for(FaultOp::kRead, offset, size, arrival);
  if (fault.error() != 0) return d.answer_error(req, {ModelOp::kRead, offset, size}, arrival, fault.error());
  auto data = std::make_shared<std::vector<char>>(size);
  const ssize_t n = ::pread(d.fd, data->data(), size, off);
  if (n < 0) return static_cast<void>(fuse_reply_err(req, errno));
  d.answer(
      {ModelOp::kRead, offset, static_cast<std::uint64_t>(n)}, arrival,
      [req, data, n] { fuse_reply_buf(req, data->data(), static_cast<std::size_t>(n)); }, fault.stall);
}

// A write to the control file: one setting (lab/lab_control.h); EINVAL for anything else.
void control(fuse_req_t req, LabDaemon& d, std::string_view text) {
  const std::optional<LabControl> setting = parse_lab_control(text);
  if (!setting) return static_cast<void>(fuse_reply_err(req, EINVAL));
  switch (setting->kind) {
    case LabControl::Kind::kCalibrate:
      d.calibrate_ns.store(setting->value.count());
      break;
    case LabControl::Kind::kModel:
      d.calibrate_ns.store(-1);
      break;
    case LabControl::Kind::kPath:
      d.path_ns.store(setting->value.count());
      break;
  }
  fuse_reply_write(req, text.size());
}

void lab_write(fuse_req_t req, fuse_ino_t ino, const char* buf, size_t size, off_t off, fuse_file_info*) {
  const std::chrono::nanoseconds arrival = ReplyScheduler::now_ns();
  LabDaemon& d = daemon_of(req);
  if (ino == kControlInode) return control(req, d, std::string_view(buf, size));
  if (ino != kDeviceInode) return static_cast<void>(fuse_reply_err(req, EACCES));
  if (static_cast<std::uint64_t>(off) + size > d.size) return static_cast<void>(fuse_reply_err(req, ENOSPC));
  const auto offset = static_cast<std::uint64_t>(off);
  const FaultDecision fault = d.fault_for(FaultOp::kWrite, offset, size, arrival);
  if (fault.error() != 0) return d.answer_error(req, {ModelOp::kWrite, offset, size}, arrival, fault.error());
  // A lie: acknowledged as written, at the model's time, and never stored.
  const ssize_t n = fault.action == FaultAction::kLie ? static_cast<ssize_t>(size) : ::pwrite(d.fd, buf, size, off);
  if (n < 0) return static_cast<void>(fuse_reply_err(req, errno));
  d.answer(
      {ModelOp::kWrite, offset, static_cast<std::uint64_t>(n)}, arrival,
      [req, n] { fuse_reply_write(req, static_cast<std::size_t>(n)); }, fault.stall);
}

// A flush of the device's cache (fsync, fdatasync, a block layer FLUSH through the loop device). The
// backing file is not synced: its durability is not the model's.
void lab_fsync(fuse_req_t req, fuse_ino_t, int, fuse_file_info*) {
  const std::chrono::nanoseconds arrival = ReplyScheduler::now_ns();
  LabDaemon& d = daemon_of(req);
  const FaultDecision fault = d.fault_for(FaultOp::kFlush, 0, 0, arrival);
  const int error = fault.error();
  d.answer(
      {ModelOp::kFlush, 0, 0}, arrival, [req, error] { fuse_reply_err(req, error); }, fault.stall);
}

void lab_reply_ok(fuse_req_t req, fuse_ino_t, fuse_file_info*) { fuse_reply_err(req, 0); }

fuse_lowlevel_ops lab_operations() {
  fuse_lowlevel_ops ops{};
  ops.init = lab_init;
  ops.lookup = lab_lookup;
  ops.getattr = lab_getattr;
  ops.readdir = lab_readdir;
  ops.open = lab_open;
  ops.read = lab_read;
  ops.write = lab_write;
  ops.fsync = lab_fsync;
  ops.flush = lab_reply_ok;  // close(2), not a device flush
  ops.release = lab_reply_ok;
  return ops;
}

int open_backing(const std::string& path, std::uint64_t size) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) throw UserError(fmt::format("{}: cannot open the backing file: {}", path, std::strerror(errno)));
  struct stat st {};
  if (::fstat(fd, &st) == 0 && static_cast<std::uint64_t>(st.st_size) < size &&
      ::ftruncate(fd, static_cast<off_t>(size)) != 0) {
    const int error = errno;
    ::close(fd);
    throw UserError(fmt::format("{}: cannot size the backing file: {}", path, std::strerror(error)));
  }
  return fd;
}

}  // namespace

bool lab_daemon_available() noexcept { return true; }

int run_lab_daemon(const LabDaemonOptions& options) {
  if (::access("/dev/fuse", R_OK | W_OK) != 0) {
    throw UserError(fmt::format("lab: /dev/fuse: {} (the lab daemon needs FUSE)", std::strerror(errno)));
  }
  // The daemon cleans the loop device's dirty pages: its own writes to the backing file must not wait for the
  // global dirty limit those pages count against, or with a small vm.dirty_bytes (15 MB) writeback and the
  // daemon wait for each other (measured: fsync'd writes held 133 s, docs/lab.md tutorial). PR_SET_IO_FLUSHER
  // (Linux 5.6, CAP_SYS_RESOURCE) throttles it against its own device only, as the loop driver's workers are;
  // inherited by the threads started below. Without it (not root: no loop device over the daemon) nothing to do.
#ifdef PR_SET_IO_FLUSHER
  ::prctl(PR_SET_IO_FLUSHER, 1, 0, 0, 0);
#endif
  ModelSpec model = options.model;
  if (options.size != 0) model.resize(options.size);  // seeks scale with the device actually served
  LabDaemon d(model, enter_realtime());
  d.size = model.size_bytes;
  d.model_name = options.model.name;
  d.fd = open_backing(options.backing, d.size);
  std::vector<std::string> arguments = {
      "sluice-lab", "-o", fmt::format("fsname=sluice-lab,subtype=sluice-lab,max_read={}", kMaxRequestBytes)};
  if (::geteuid() == 0) arguments.insert(arguments.end(), {"-o", "allow_other"});
  std::vector<char*> argv;
  argv.reserve(arguments.size());
  for (std::string& a : arguments) argv.push_back(a.data());
  fuse_args args = FUSE_ARGS_INIT(static_cast<int>(argv.size()), argv.data());
  const fuse_lowlevel_ops ops = lab_operations();
  fuse_session* session = fuse_session_new(&args, &ops, sizeof ops, &d);
  if (session == nullptr) {
    ::close(d.fd);
    throw UserError("lab: cannot start the FUSE session");
  }
  int code = 1;
  if (fuse_set_signal_handlers(session) == 0) {
    if (fuse_session_mount(session, options.mountpoint.c_str()) == 0) {
      fuse_loop_config* loop = fuse_loop_cfg_create();
      fuse_loop_cfg_set_max_threads(loop, options.threads);
      code = fuse_session_loop_mt(session, loop) < 0 ? 1 : 0;  // > 0: stopped by SIGINT/SIGTERM
      fuse_loop_cfg_destroy(loop);
      fuse_session_unmount(session);
    } else {
      std::fprintf(stderr, "sluice: lab: cannot mount FUSE at %s\n", options.mountpoint.c_str());
    }
    fuse_remove_signal_handlers(session);
  }
  d.replies.reset();  // replies still due go out now, while the session exists
  fuse_session_destroy(session);
  ::close(d.fd);
  return code;
}

}  // namespace sluice

#else

namespace sluice {

bool lab_daemon_available() noexcept { return false; }

int run_lab_daemon(const LabDaemonOptions&) {
  throw UserError("lab: this sluice was built without libfuse3 (install libfuse3-dev and rebuild)");
}

}  // namespace sluice

#endif
