#include "method/quick.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "common/clock.h"
#include "common/created_files.h"
#include "common/error.h"
#include "common/stop_signal.h"
#include "engine/engine.h"
#include "job/job_spec.h"
#include "job/units.h"
#include "method/lint.h"
#include "observe/environment.h"
#include "run/runner.h"
#include "targets/target_file.h"

namespace sluice {
namespace {

using std::chrono::nanoseconds;

constexpr std::uint64_t kProbeBytes = 256ull << 20;  // first piece of the layout, timed to size the rest
constexpr std::uint32_t kSeqDepth = 16;              // 1 MiB x 16 in flight: enough to stream most devices
constexpr std::uint32_t kMaxConcurrency = 256;

// The temporary directory and everything in it is removed when this goes out of scope, unless released.
class QuickDir {
 public:
  explicit QuickDir(const std::string& parent) {
    std::error_code ec;
    if (!std::filesystem::is_directory(parent, ec)) throw UserError(fmt::format("{}: not a directory", parent));
    std::string absolute = std::filesystem::absolute(parent, ec).lexically_normal().string();
    if (ec) absolute = parent;
    path_ = create_journaled_directory(absolute, "sluice-quick-", false);
    if (path_.empty()) {
      throw UserError(fmt::format("{}: cannot create a temporary directory: {}", parent, std::strerror(errno)));
    }
  }
  ~QuickDir() {
    std::error_code ec;
    if (kept_) return;
    std::filesystem::remove_all(path_, ec);
    journal_removed(path_);
  }
  QuickDir(const QuickDir&) = delete;
  QuickDir& operator=(const QuickDir&) = delete;
  void keep() { kept_ = true; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  bool kept_ = false;
};

struct Interrupted {};

Problem warning(std::string option, std::string message) {
  Problem p;
  p.severity = Problem::Severity::kWarning;
  p.option = std::move(option);
  p.message = std::move(message);
  return p;
}

bool supports_o_direct(const std::string& dir) {
  const std::string probe = dir + "/.direct-probe";
  const int fd = ::open(probe.c_str(), O_CREAT | O_RDWR | O_DIRECT | O_CLOEXEC, 0600);
  if (fd >= 0) ::close(fd);
  ::unlink(probe.c_str());
  return fd >= 0;
}

// The asked engine if it starts, else the next of io_uring -> libaio -> psync (with a warning saying so).
EngineKind choose_engine(EngineKind asked, std::vector<Problem>& warnings) {
  if (engine_available(asked)) return asked;
  EngineKind chosen = EngineKind::kPsync;
  if (asked == EngineKind::kIoUring && engine_available(EngineKind::kLibaio)) chosen = EngineKind::kLibaio;
  warnings.push_back(warning("ioengine", fmt::format("{} is not available here (kernel or permissions): using {}",
                                                     engine_name(asked), engine_name(chosen))));
  return chosen;
}

std::uint64_t free_bytes_of(const std::string& dir) {
  struct statvfs st {};
  if (::statvfs(dir.c_str(), &st) != 0) throw UserError(fmt::format("{}: statvfs: {}", dir, std::strerror(errno)));
  return static_cast<std::uint64_t>(st.f_bavail) * st.f_frsize;
}

std::uint64_t ram_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : 0;
}

class QuickDriver {
 public:
  QuickDriver(const QuickOptions& options, const CapacityFunction& capacity)
      : options_(options),
        capacity_(capacity),
        clock_(options.clock ? LoopClock(*options.clock) : LoopClock()),
        start_ns_(clock_.now()) {}

  QuickReport run();

 private:
  // What is left of the budget, less a reserve for removing the file and printing (~1.5%).
  nanoseconds remaining() const {
    return options_.budget - options_.budget * 15 / 1000 -
           nanoseconds(static_cast<std::int64_t>(clock_.now() - start_ns_));
  }
  void notice(const std::string& text) const {
    if (text.rfind("sluice: what could make", 0) == 0) return;  // the lint block: quick's table shows it
    if (options_.notice) {
      options_.notice(text);
    } else {
      std::fprintf(stderr, "%s\n", text.c_str());
    }
  }
  void start(const std::string& dir);
  void run_tests();
  JobSpec base_job(const char* name, RwMode rw, std::uint64_t bs) const;
  void lay_out(std::uint64_t size);
  void size_and_lay_out();
  void run_fixed(QuickStep step, const char* key, std::string label, JobSpec job);
  void run_capacity(QuickStep step, const char* key, RwMode rw);
  void add_run(RunResult run);
  bool stopped() const { return report_.run.interrupted || stop_requested(); }

  const QuickOptions& options_;
  const CapacityFunction& capacity_;
  LoopClock clock_;
  std::uint64_t start_ns_;
  EngineKind engine_ = EngineKind::kIoUring;
  bool short_tests_ = false;
  QuickReport report_;
};

JobSpec QuickDriver::base_job(const char* name, RwMode rw, std::uint64_t bs) const {
  JobSpec job;
  job.name = name;
  job.target.filenames = {report_.file};
  job.target.size.bytes = report_.file_size;
  job.workload.rw = rw;
  job.workload.bs = {bs, bs, bs};
  job.engine.ioengine = engine_;
  job.target.direct = report_.direct;
  job.queue.iodepth_batch_submit = 1;
  job.time.time_based = true;
  job.report.percentile_list = {50, 99, 99.9};
  return job;
}

// Lays out (or extends) the test file to `size` bytes of random data; a stop request aborts it.
void QuickDriver::lay_out(std::uint64_t size) {
  JobSpec job = base_job("layout", RwMode::kWrite, 1 << 20);
  job.target.size.bytes = size;
  std::vector<TargetFile> targets = resolve_targets(job, 0);
  prepare_targets(targets, job, [](const std::string&, std::uint64_t, std::uint64_t) {
    if (stop_requested()) throw Interrupted{};
  });
}

void QuickDriver::size_and_lay_out() {
  SizingInputs in;
  in.free_bytes = free_bytes_of(report_.directory);
  in.ram_bytes = ram_bytes();
  in.direct = report_.direct;
  in.requested = options_.size;
  const std::uint64_t t0 = clock_.now();
  if (!options_.size) {
    // Time a first piece of the layout; its speed decides how much more fits the layout's share of the budget.
    const std::uint64_t probe = std::min(kProbeBytes, decide_size(in).size);
    lay_out(probe);
    const double seconds = double(clock_.now() - t0) / 1e9;
    in.layout_bytes_per_second = seconds > 0 ? double(probe) / seconds : 0;
    in.layout_time = step_slot(QuickStep::kLayout, options_.budget);
  }
  report_.sizing = decide_size(in);
  report_.file_size = report_.sizing.size;
  for (const Problem& w : report_.sizing.warnings) report_.run.warnings.push_back(w);
  notice(fmt::format("sluice quick: laying out {} ({})", report_.file, format_bytes(double(report_.file_size))));
  lay_out(report_.file_size);
  report_.layout_seconds = double(clock_.now() - t0) / 1e9;
}

void QuickDriver::add_run(RunResult run) {
  for (GroupResult& group : run.groups) {
    group.groupid = static_cast<int>(report_.run.groups.size());
    for (JobResult& job : group.jobs) job.groupid = group.groupid;
    report_.run.groups.push_back(std::move(group));
  }
  for (Problem& w : run.warnings) {
    // quick's tests are short by design (the budget); one summary line says so instead of one per test.
    if (w.code == kLintShortRuntime || w.code == kLintNoRampTime) {
      short_tests_ = true;
      continue;
    }
    // Every test uses the same file and settings: one finding per rule is enough.
    const bool seen = std::any_of(report_.run.warnings.begin(), report_.run.warnings.end(), [&](const Problem& p) {
      return w.code.empty() ? p.message == w.message : p.code == w.code;
    });
    if (!seen) report_.run.warnings.push_back(std::move(w));
  }
  for (DiskUtilization& d : run.disks) report_.run.disks.push_back(std::move(d));
  if (report_.run.clock_source.empty()) report_.run.clock_source = run.clock_source;
  if (report_.run.version.empty()) report_.run.version = run.version;
  report_.run.interrupted = report_.run.interrupted || run.interrupted;
}

QuickRow row_of(const JobResult& job, Direction d) {
  const DirectionStats& s = job.dirs[index_of(d)];
  QuickRow row;
  row.direction = d;
  row.iodepth = job.settings.iodepth;
  const double seconds = static_cast<double>(job.runtime_ns) / 1e9;
  row.iops = seconds > 0 ? static_cast<double>(s.ios) / seconds : 0;
  row.bytes_per_second = seconds > 0 ? static_cast<double>(s.bytes) / seconds : 0;
  row.lat_mean_ns = s.lat.moments.mean();
  row.lat_p99_ns = s.lat.histogram.percentile(99);
  row.lat_p999_ns = s.lat.histogram.percentile(99.9);
  return row;
}

void QuickDriver::run_fixed(QuickStep step, const char* key, std::string label, JobSpec job) {
  if (stopped()) return;
  const TestTiming timing = timing_for_slot(step_slot(step, remaining()));
  job.time.runtime = timing.runtime;
  job.time.ramp_time = timing.ramp;
  RunnerOptions runner;
  runner.status_line = options_.status_line;
  runner.capture_environment = false;
  runner.notice = [this](const std::string& text) { notice(text); };
  install_lint(runner);
  RunResult run = options_.run_test ? options_.run_test({job}, runner) : run_jobs({job}, runner);
  if (run.groups.empty()) return add_run(std::move(run));
  const JobResult merged = run.groups.front().aggregate();
  const Direction d = job.does_writes() ? Direction::kWrite : Direction::kRead;
  QuickRow row = row_of(merged, d);
  row.key = key;
  row.test = std::move(label);
  row.numjobs = job.control.numjobs;
  if (job.durability.fsync_blocks > 0 && merged.sync.ios > 0) {
    // One transaction = the write and its fsync: mean of both; the tail is the fsync's.
    row.lat_mean_ns += merged.sync.lat.moments.mean();
    row.lat_p99_ns = merged.sync.lat.histogram.percentile(99);
    row.lat_p999_ns = merged.sync.lat.histogram.percentile(99.9);
  }
  report_.rows.push_back(std::move(row));
  add_run(std::move(run));
}

nlohmann::json quick_point_json(const std::optional<CapacityPoint>& p) {
  if (!p) return nullptr;
  return {{"iodepth", p->iodepth},
          {"numjobs", p->numjobs},
          {"concurrency", p->concurrency()},
          {"iops", p->iops},
          {"lat_mean_ns", p->lat_mean_ns},
          {"lat_p50_ns", p->lat_p50_ns},
          {"lat_p99_ns", p->lat_p99_ns},
          {"lat_p999_ns", p->lat_p999_ns},
          {"steady", p->steady},
          {"within_slo", p->within_slo}};
}

nlohmann::json capacity_summary(const CapacityResult& r) {
  nlohmann::json curve = nlohmann::json::array();
  for (const CapacityPoint& p : r.curve) curve.push_back(quick_point_json(p));
  return {{"answer", quick_point_json(r.answer)},
          {"knee", quick_point_json(r.knee)},
          {"thrashing", quick_point_json(r.thrashing)},
          {"curve", curve},
          {"elapsed_s", r.elapsed_s},
          {"budget_exhausted", r.budget_exhausted}};
}

void QuickDriver::run_capacity(QuickStep step, const char* key, RwMode rw) {
  if (stopped()) return;
  const bool reads = rw == RwMode::kRandRead;
  CapacityRequest request;
  request.streams = {base_job(reads ? "randread-capacity" : "randwrite-capacity", rw, 4096)};
  request.slo = options_.slo;
  request.slo_stat = SloStat::kMean;
  // A synchronous engine has one io in flight per job: concurrency then comes from jobs.
  request.scale = engine_traits(engine_).honours_iodepth() ? ConcurrencyScale::kIodepth : ConcurrencyScale::kNumjobs;
  request.budget = step_slot(step, remaining());
  request.max_concurrency = kMaxConcurrency;
  request.status_line = options_.status_line;
  request.progress = [this](const std::string& text) { notice(text); };
  CapacityResult result = capacity_(request);
  QuickRow row;
  row.key = key;
  row.test = fmt::format("4 KiB random {} capacity", reads ? "read" : "write");
  row.direction = reads ? Direction::kRead : Direction::kWrite;
  const std::optional<CapacityPoint> shown = result.answer          ? result.answer
                                             : result.curve.empty() ? std::nullopt
                                                                    : std::optional(result.curve.front());
  row.within_slo = result.answer.has_value();
  if (shown) {
    row.iodepth = shown->iodepth;
    row.numjobs = shown->numjobs;
    row.iops = shown->iops;
    row.bytes_per_second = shown->iops * 4096;
    row.lat_mean_ns = shown->lat_mean_ns;
    row.lat_p99_ns = shown->lat_p99_ns;
    row.lat_p999_ns = shown->lat_p999_ns;
  }
  row.capacity = capacity_summary(result);
  if (shown || !result.curve.empty()) report_.rows.push_back(std::move(row));
  add_run(std::move(result.final_run));
  if (stop_requested()) report_.run.interrupted = true;
}

void QuickDriver::start(const std::string& dir) {
  report_.directory = dir;
  report_.file = dir + "/testfile";
  report_.budget = options_.budget;
  report_.slo = options_.slo;
  report_.direct = supports_o_direct(dir);
  if (!report_.direct) {
    report_.run.warnings.push_back(warning("direct",
                                           "the filesystem refuses O_DIRECT: buffered I/O measures the "
                                           "page cache too"));
  }
  engine_ = choose_engine(options_.engine, report_.run.warnings);
  report_.engine = std::string(engine_name(engine_));
  report_.run.timestamp_ms = static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
}

void QuickDriver::run_tests() {
  const std::uint32_t seq_depth = engine_traits(engine_).honours_iodepth() ? kSeqDepth : 1;
  JobSpec seq_write = base_job("seq-write", RwMode::kWrite, 1 << 20);
  seq_write.queue.iodepth = seq_depth;
  run_fixed(QuickStep::kSeqWrite, "seq_write", "1 MiB sequential write", seq_write);
  JobSpec seq_read = base_job("seq-read", RwMode::kRead, 1 << 20);
  seq_read.queue.iodepth = seq_depth;
  run_fixed(QuickStep::kSeqRead, "seq_read", "1 MiB sequential read", seq_read);
  run_capacity(QuickStep::kRandReadCapacity, "randread_capacity", RwMode::kRandRead);
  run_capacity(QuickStep::kRandWriteCapacity, "randwrite_capacity", RwMode::kRandWrite);
  run_fixed(QuickStep::kRandReadDepth1, "randread_qd1", "4 KiB random read, depth 1",
            base_job("randread-qd1", RwMode::kRandRead, 4096));
  run_fixed(QuickStep::kRandWriteDepth1, "randwrite_qd1", "4 KiB random write, depth 1",
            base_job("randwrite-qd1", RwMode::kRandWrite, 4096));
  // The database case: one write, then fsync, then the next; psync as databases do.
  JobSpec fsync_write = base_job("fsync-write", RwMode::kRandWrite, 16 << 10);
  fsync_write.engine.ioengine = EngineKind::kPsync;
  fsync_write.durability.fsync_blocks = 1;
  run_fixed(QuickStep::kFsyncWrite, "fsync_write", "16 KiB random write + fsync, psync", fsync_write);
  if (short_tests_) {
    Problem w = warning("budget", fmt::format("with a budget of {}, tests measure for less than 10 s each: too "
                                              "few per-second samples to tell whether the results are steady; "
                                              "a larger --budget runs them longer",
                                              format_duration_ns(double(options_.budget.count()))));
    w.code = std::string(kLintShortRuntime);
    report_.run.warnings.push_back(std::move(w));
  }
}

QuickReport QuickDriver::run() {
  install_stop_signal_handlers();
  QuickDir dir(options_.directory);
  start(dir.path());
  try {
    size_and_lay_out();
  } catch (const Interrupted&) {
    report_.run.interrupted = true;
  }
  report_.run.environment = capture_environment({report_.file});
  run_tests();
  if (options_.keep) dir.keep();
  report_.kept = options_.keep;
  report_.elapsed_seconds = double(clock_.now() - start_ns_) / 1e9;
  report_.run.command = "quick";
  report_.run.extra["quick"] = quick_summary_json(report_);
  return std::move(report_);
}

}  // namespace

QuickReport run_quick(const QuickOptions& options, const CapacityFunction& capacity) {
  QuickDriver driver(options, capacity);
  return driver.run();
}

}  // namespace sluice
