#include "selftest/selftest_runner.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <linux/magic.h>
#include <sched.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

#include "common/child_run.h"
#include "common/error.h"
#include "common/stop_signal.h"
#include "job/units.h"
#include "lab/lab_device.h"
#include "lab/model_source.h"
#include "observe/cpu_busy.h"
#include "observe/knobs.h"
#include "observe/lab_resources.h"
#include "selftest/selftest_interfere.h"
#include "selftest/selftest_measure.h"
#include "selftest/selftest_plan.h"

namespace sluice {
namespace {

using Clock = std::chrono::steady_clock;

// A measurement's bound: the longest check (capacity) has a 60 s budget.
constexpr std::chrono::seconds kChildTimeout(150);

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string last_lines(const std::string& text, int count) {
  std::size_t pos = text.size();
  while (count-- > 0 && pos > 0) {
    pos = text.rfind('\n', pos - 1);
    if (pos == std::string::npos) return text;
  }
  return text.substr(pos + 1);
}

// The scratch directory: the labs' mount points, the results and the children's log.
class WorkDir {
 public:
  // `keep`: this directory (created when missing), kept afterwards; "": a temporary one, removed.
  explicit WorkDir(const std::string& keep) : keep_(!keep.empty()) {
    if (keep_) {
      std::error_code ec;
      std::filesystem::create_directories(keep, ec);
      if (ec) throw UserError("--results=" + keep + ": cannot create it: " + ec.message());
      path_ = std::filesystem::absolute(keep).string();
      return;
    }
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/sluice-selftest-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) throw UserError("selftest: cannot create a directory in " + pattern);
    path_ = pattern;
  }
  ~WorkDir() {
    std::error_code ec;
    if (!keep_) std::filesystem::remove_all(path_, ec);
  }
  WorkDir(const WorkDir&) = delete;
  WorkDir& operator=(const WorkDir&) = delete;
  const std::string& path() const { return path_; }
  // A new result file's path, unique for the whole selftest (every lab's runner shares the directory).
  std::string next_result() const { return path_ + "/result-" + std::to_string(++results_) + ".json"; }

 private:
  mutable int results_ = 0;
  bool keep_ = false;
  std::string path_;
};

// A lab this selftest brought up, taken down when it goes out of scope.
class OwnLab {
 public:
  explicit OwnLab(LabRecord record) : record_(std::move(record)) {}
  ~OwnLab() { take_lab_down(record_, true); }
  OwnLab(const OwnLab&) = delete;
  OwnLab& operator=(const OwnLab&) = delete;
  const LabRecord& record() const { return record_; }

 private:
  LabRecord record_;
};

struct Measurement {
  std::optional<nlohmann::json> doc;
  std::string failure;
};

class CheckRunner {
 public:
  // `dir`: the lab's mounted filesystem ("" for a raw lab).
  CheckRunner(const WorkDir& work, std::string device, bool fio, std::string dir = "")
      : work_(work), device_(std::move(device)), dir_(std::move(dir)), fio_(fio), sluice_(own_executable()) {
    log_ = work_.path() + "/children.log";
  }

  Measurement sluice(const std::vector<std::string>& args) { return cached(sluice_, args, sluice_cache_); }

  // Runs sluice with `args` `count` times; the result files, or empty with `failure` set at the first that fails.
  std::vector<std::string> repetitions(const std::vector<std::string>& args, int count, std::string& failure) {
    std::vector<std::string> files;
    for (int i = 0; i < count && !stop_requested(); ++i) {
      const Measurement m = run(sluice_, args);
      if (!m.doc) {
        failure = m.failure;
        return {};
      }
      files.push_back(last_output_);
    }
    return files;
  }
  Measurement fio(const std::vector<std::string>& args) { return cached("fio", args, fio_cache_); }
  bool has_fio() const { return fio_; }

 private:
  Measurement cached(const std::string& program, const std::vector<std::string>& args,
                     std::map<std::vector<std::string>, Measurement>& cache) {
    const auto found = cache.find(args);
    if (found != cache.end()) return found->second;
    return cache[args] = run(program, args);
  }

  Measurement run(const std::string& program, const std::vector<std::string>& args) {
    const std::string output = work_.next_result();
    std::vector<std::string> argv = {program};
    for (const std::string& a : args) {
      std::string arg = a;
      const std::size_t at = arg.find("{device}");
      if (at != std::string::npos) arg.replace(at, 8, device_);
      const std::size_t dir_at = arg.find("{dir}");
      if (dir_at != std::string::npos) arg.replace(dir_at, 5, dir_);
      argv.push_back(arg);
    }
    argv.push_back("--output=" + output);
    const int log_fd = ::open(log_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (log_fd < 0) throw UserError("selftest: cannot write " + log_);
    const std::size_t log_start = static_cast<std::size_t>(::lseek(log_fd, 0, SEEK_END));
    const ChildRun child = run_child(argv, log_fd, kChildTimeout);
    ::close(log_fd);
    Measurement m;
    const std::optional<nlohmann::json> doc = parse_result_document(read_file(output));
    if (child.ok() && doc) {
      m.doc = doc;
      last_output_ = output;
      return m;
    }
    const std::string said = last_lines(read_file(log_).substr(log_start), 3);
    m.failure = (program == "fio" ? "fio: " : "sluice: ") + describe_failure(child) +
                (child.ok() ? " (no JSON result)" : "") + (said.empty() ? "" : ": " + said);
    while (!m.failure.empty() && m.failure.back() == '\n') m.failure.pop_back();
    return m;
  }

  const WorkDir& work_;
  std::string device_;
  std::string dir_;
  bool fio_ = false;
  std::string sluice_;
  std::string log_;
  std::string last_output_;
  std::map<std::vector<std::string>, Measurement> sluice_cache_;
  std::map<std::vector<std::string>, Measurement> fio_cache_;
};

bool fio_installed(const WorkDir& work) {
  const std::string log = work.path() + "/fio-version.log";
  const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  const ChildRun run = run_child({"fio", "--version"}, fd, std::chrono::seconds(10));
  ::close(fd);
  // A `fio` that is sluice's own link (build/fio first in PATH) says "sluice": no second opinion.
  return run.ok() && read_file(log).rfind("fio-", 0) == 0;
}

// The measurements and the daemons' replies at the lowest real-time priority, as in the lab's fidelity tests:
// the selftest judges the methods, not how a CPU hog beside them delays their threads.
bool enter_realtime() {
  sched_param priority{};
  priority.sched_priority = 1;
  return ::sched_setscheduler(0, SCHED_FIFO, &priority) == 0;
}

// A latency of one request alone is where the path's drift after lab up shows (docs/lab.md): measured again
// right before such a check.
bool alone_latency(const SelftestCheck& check) {
  return check.group == "run" &&
         (check.measure == Measure::kReadLatencyMean || check.measure == Measure::kWriteLatencyMean);
}

SelftestRow judge_check(const std::string& lab, const SelftestCheck& check, CheckRunner& runner) {
  SelftestRow row;
  row.lab = lab;
  row.check = check;
  const Measurement m = runner.sluice(check.sluice_args);
  if (m.doc) {
    row.measured = read_measure(*m.doc, check.measure, row.failure);
    if (!row.measured) row.failure = "sluice: " + row.failure;
  } else {
    row.failure = m.failure;
  }
  if (row.measured) row.agrees = agrees_with_truth(check, *row.measured);
  if (!check.fio_args.empty() && runner.has_fio() && !stop_requested()) {
    const Measurement f = runner.fio(check.fio_args);
    std::string why;
    if (f.doc) row.fio = read_measure(*f.doc, check.measure, why);
  }
  return row;
}

// Flushes the lab's filesystem between fio's phases, so one phase's flood is not the next one's.
void flush_all() { ::sync(); }

// fio's foreground IOPS for one phase run with the setup's base knobs (and `knob` on top when set), journalled
// and restored before returning; nullopt (with `why`) when fio failed.
std::optional<double> fio_phase(CheckRunner& runner, const InterfereSetup& setup, const std::vector<std::string>& args,
                                bool knob, std::string& why) {
  KnobSession session;
  for (const auto& [name, value] : setup.base) session.set(name, value);
  if (knob) {
    for (const auto& [name, value] : setup.knob) session.set(name, value);
  }
  const Measurement m = runner.fio(args);
  flush_all();
  const std::vector<std::string> failed = session.restore_all();
  if (!failed.empty()) throw UserError("selftest: restoring " + failed.front());
  if (!m.doc) {
    why = m.failure;
    return std::nullopt;
  }
  return fio_foreground_iops(*m.doc, why);
}

// The interfere rows run at normal priority: a background writer under SCHED_FIFO starves the kernel's flusher
// threads (normal priority) on a small machine, and with the trial's 15 MiB dirty limit the lab's writeback then
// crawled for 25 minutes (measured: the child could not even be killed meanwhile).
class NormalPriority {
 public:
  NormalPriority() {
    sched_param none{};
    was_realtime_ = ::sched_getscheduler(0) == SCHED_FIFO;
    if (was_realtime_) ::sched_setscheduler(0, SCHED_OTHER, &none);
  }
  ~NormalPriority() {
    if (!was_realtime_) return;
    sched_param priority{};
    priority.sched_priority = 1;
    ::sched_setscheduler(0, SCHED_FIFO, &priority);
  }
  NormalPriority(const NormalPriority&) = delete;
  NormalPriority& operator=(const NormalPriority&) = delete;

 private:
  bool was_realtime_ = false;
};

// The interfere rows (selftest_interfere.h): sluice interfere once, then fio beside with sluice's flood, phase
// by phase, and each row judged. Without fio the knob rows have no reference and are left out (the note says so).
void run_interfere_checks(const std::string& name, const std::vector<SelftestCheck>& checks, CheckRunner& runner,
                          const std::string& dir, const SelftestOptions& options, SelftestSummary& summary) {
  const NormalPriority normal;
  const InterfereSetup setup;
  const Measurement m = runner.sluice(checks.front().sluice_args);
  flush_all();
  std::string bg_why = m.failure;
  std::uint64_t bg_bytes = 0;
  std::uint64_t bg_bs = 0;
  if (m.doc) {
    if (const auto bg = interfere_background(*m.doc, bg_why)) std::tie(bg_bytes, bg_bs) = *bg;
  }
  if (runner.has_fio()) {
    runner.fio(fio_layout_args(dir));
    flush_all();
  }
  for (const SelftestCheck& check : checks) {
    if (stop_requested()) {
      summary.interrupted = true;
      return;
    }
    if (check.measure == Measure::kKnobEffect && !runner.has_fio()) continue;
    SelftestRow row;
    row.lab = name;
    row.check = check;
    std::optional<double> idle;
    std::optional<double> loaded;
    std::string fio_why;
    if (runner.has_fio() && bg_bytes > 0) {
      const std::uint32_t t = check.threads;
      idle = fio_phase(runner, setup, fio_phase_args(setup, t, dir, 0, 0, "idle"), false, fio_why);
      loaded = fio_phase(runner, setup, fio_phase_args(setup, t, dir, bg_bytes, bg_bs, "loaded"), false, fio_why);
    }
    if (check.measure == Measure::kSlowdown) {
      if (m.doc) row.measured = interfere_slowdown(*m.doc, check.threads, row.failure);
      if (idle && loaded && *loaded > 0) row.fio = *idle / *loaded;
    } else {
      const auto knob =
          loaded ? fio_phase(runner, setup, fio_phase_args(setup, check.threads, dir, bg_bytes, bg_bs, "knob"), true,
                             fio_why)
                 : std::nullopt;
      if (knob && *loaded > 0) {
        row.check.truth = knob_direction(*knob / *loaded);
        row.fio = row.check.truth;
        if (m.doc) {
          const std::optional<double> ratio = interfere_knob_ratio(*m.doc, check.threads, row.failure);
          if (ratio) row.measured = knob_direction(*ratio);
        }
      } else {
        row.failure = "fio: no reference measurement: " + (fio_why.empty() ? bg_why : fio_why);
      }
    }
    if (!m.doc && row.failure.empty()) row.failure = m.failure;
    if (row.measured) row.agrees = agrees_with_truth(row.check, *row.measured);
    summary.rows.push_back(row);
    if (options.on_row) options.on_row(row);
  }
}

// `recalibrate` (may be empty) measures the lab's path again before a latency-alone check.
void run_lab_checks(const std::string& name, const std::vector<SelftestCheck>& checks, CheckRunner& runner,
                    const SelftestOptions& options, SelftestSummary& summary,
                    const std::function<void()>& recalibrate = {}) {
  for (const SelftestCheck& check : checks) {
    if (stop_requested()) {
      summary.interrupted = true;
      return;
    }
    if (recalibrate && alone_latency(check)) recalibrate();
    summary.rows.push_back(judge_check(name, check, runner));
    if (stop_requested()) {
      summary.interrupted = true;
      summary.rows.pop_back();  // measured while stopping: no verdict
      return;
    }
    if (options.on_row) options.on_row(summary.rows.back());
  }
}

std::string path_note(const LabUpResult& up) {
  if (!up.path) return "the path was not measured (no compensation)";
  return "the kernel-loop-FUSE path, " + std::to_string(up.path->median.count() / 1000) +
         " us (median), measured and absorbed by the daemon";
}

// Takes out the fsync'd-write checks this lab cannot serve faithfully with the path it measured; returns what to
// add to the lab's note ("" when none was taken out).
std::string drop_unfaithful_fsync(const ModelSpec& model, std::chrono::nanoseconds path,
                                  std::vector<SelftestCheck>& checks) {
  const auto unfaithful = [&](const SelftestCheck& c) {
    return c.group == "fsync" && !fsync_judgeable(model, c.truth, path);
  };
  if (std::none_of(checks.begin(), checks.end(), unfaithful)) return "";
  std::erase_if(checks, unfaithful);
  return "; fsync'd writes not judged: the model's flush is shorter than this path, which a reply cannot beat "
         "(docs/lab.md)";
}

// Takes out quick's class check when the measured path alone would move the model to another class (ramdisk's
// 0.1 ms behind a path of 0.2 ms measures as an ssd's latency); returns what to add to the lab's note.
std::string drop_unfaithful_quick(const ModelSpec& model, std::chrono::nanoseconds path,
                                  std::vector<SelftestCheck>& checks) {
  const auto unfaithful = [&](const SelftestCheck& c) {
    return c.measure == Measure::kQuickClass &&
           quick_class_truth(confined_model(model, kQuickFileFraction), path) != static_cast<int>(c.truth);
  };
  if (std::none_of(checks.begin(), checks.end(), unfaithful)) return "";
  std::erase_if(checks, unfaithful);
  return "; quick's class not judged: a request alone cannot beat this path, which puts the model in another "
         "class (docs/lab.md)";
}

// --lab DIR --model MODEL: the lab that is up at DIR, judged as MODEL.
void judge_existing_lab(const SelftestOptions& options, const WorkDir& work, bool fio, SelftestSummary& summary) {
  std::vector<std::string> problems;
  const std::vector<LabStatus> labs = list_labs(problems);
  const LabStatus* lab = find_lab(labs, options.lab_dir);
  if (lab == nullptr || lab->state != LabState::kUp) {
    throw UserError("selftest: --lab=" + options.lab_dir + ": no lab is up there (sluice lab list shows the labs)");
  }
  if (lab->record.fs != "none") {
    throw UserError("selftest: --lab=" + options.lab_dir + ": the lab carries a filesystem (" + lab->record.fs +
                    "), which the measurements would overwrite: bring it up with --fs=none");
  }
  ModelSpec model = load_model(options.model);
  model.resize(lab->record.size);
  summary.labs.push_back(
      {model.name, lab->record.device(), "judged as " + model.name + " (it serves " + lab->record.model + ")"});
  CheckRunner runner(work, lab->record.device(), fio);
  run_lab_checks(model.name, checks_for_model(model, options.plan), runner, options, summary);
}

// The result files of each side of each comparison, gathered lab by lab.
struct ComparisonRuns {
  std::vector<std::string> baseline;
  std::vector<std::string> other;
  std::string failure;
};

void run_repetitions(const std::string& preset, const std::vector<SelftestComparison>& comparisons, CheckRunner& runner,
                     std::vector<ComparisonRuns>& runs) {
  for (std::size_t i = 0; i < comparisons.size(); ++i) {
    const SelftestComparison& c = comparisons[i];
    if (c.baseline != preset && c.other != preset) continue;
    std::string failure;
    std::vector<std::string> files = runner.repetitions(c.run_args, c.repetitions, failure);
    if (!failure.empty()) runs[i].failure = preset + ": " + failure;
    (c.baseline == preset ? runs[i].baseline : runs[i].other) = std::move(files);
  }
}

std::string comma_list(const std::vector<std::string>& files) {
  std::string out;
  for (const std::string& f : files) out += (out.empty() ? "" : ",") + f;
  return out;
}

void judge_comparisons(const std::vector<SelftestComparison>& comparisons, const std::vector<ComparisonRuns>& runs,
                       CheckRunner& runner, const SelftestOptions& options, SelftestSummary& summary) {
  if (comparisons.empty() || summary.interrupted) return;
  summary.labs.push_back({"compare", "", "sluice compare over each lab's repetitions of one job"});
  for (std::size_t i = 0; i < comparisons.size(); ++i) {
    const SelftestComparison& c = comparisons[i];
    SelftestRow row;
    row.lab = "compare";
    row.check = c.check;
    row.failure = runs[i].failure;
    if (row.failure.empty() && (runs[i].baseline.empty() || runs[i].other.empty())) {
      row.failure = "not measured (a lab was not brought up)";
    }
    if (row.failure.empty()) {
      const Measurement m =
          runner.sluice({"compare", comma_list(runs[i].baseline), comma_list(runs[i].other), "--output-format=json"});
      if (m.doc) {
        row.measured = read_verdict(*m.doc, c.job, c.direction, c.metric, row.failure);
      } else {
        row.failure = m.failure;
      }
    }
    if (row.measured) row.agrees = agrees_with_truth(c.check, *row.measured);
    summary.rows.push_back(row);
    if (options.on_row) options.on_row(row);
  }
}

// Sets `up.state_dir` to /dev/shm when it is a tmpfs with room for the whole backing file and 1 GiB more;
// returns what the lab's note says when it is not (the backing file then stays on disk).
std::string place_backing_in_memory(LabUpOptions& up) {
  constexpr const char* kShm = "/dev/shm";
  constexpr std::uint64_t kMargin = std::uint64_t{1} << 30;
  struct statfs fs {};
  if (::statfs(kShm, &fs) != 0 || fs.f_type != TMPFS_MAGIC) {
    return "; no tmpfs at /dev/shm: the backing file is on disk, where the lab's own writes join the flood's";
  }
  const std::uint64_t free_bytes = static_cast<std::uint64_t>(fs.f_bavail) * static_cast<std::uint64_t>(fs.f_bsize);
  if (free_bytes < up.size + kMargin) {
    return fmt::format(
        "; /dev/shm has {} free, too little for the {} backing file: it is on disk, where the "
        "lab's own writes join the flood's",
        format_bytes(static_cast<double>(free_bytes)), format_bytes(static_cast<double>(up.size)));
  }
  up.state_dir = kShm;
  return "; the backing file in /dev/shm (tmpfs)";
}

void run_own_labs(const SelftestOptions& options, const WorkDir& work, bool fio, SelftestSummary& summary) {
  const std::vector<SelftestComparison> comparisons = plan_comparisons(options.plan);
  std::vector<ComparisonRuns> runs(comparisons.size());
  for (const SelftestLab& planned : plan_selftest(options.plan)) {
    if (stop_requested()) {
      summary.interrupted = true;
      return;
    }
    LabUpOptions up;
    up.model_arg = planned.preset;
    if (!planned.model_text.empty()) {  // not a preset: lab up (and its daemon) read it from a file
      up.model_arg = work.path() + "/" + planned.preset + ".model";
      std::ofstream(up.model_arg) << planned.model_text;
    }
    up.model = load_model(up.model_arg);
    const std::string name = planned.fs == "none" ? planned.preset : planned.preset + " + " + planned.fs;
    up.mountpoint = work.path() + "/lab-" + planned.preset + (planned.fs == "none" ? "" : "-" + planned.fs);
    std::filesystem::create_directories(up.mountpoint);
    if (!std::filesystem::is_empty(up.mountpoint)) throw UserError("selftest: " + up.mountpoint + " is not empty");
    up.size = planned.model.size_bytes;
    up.fs = planned.fs;
    std::string backing_note;
    if (planned.backing_in_memory) backing_note = place_backing_in_memory(up);
    const LabUpResult result = lab_up(up);
    const OwnLab lab(result.record);
    std::vector<SelftestCheck> checks = planned.checks;
    std::string note = path_note(result) + backing_note;
    if (result.path) note += drop_unfaithful_fsync(planned.model, result.path->median, checks);
    if (result.path) note += drop_unfaithful_quick(planned.model, result.path->median, checks);
    summary.labs.push_back({name, lab.record().device(), note});
    CheckRunner runner(work, lab.record().device(), fio, planned.fs == "none" ? "" : up.mountpoint);
    const std::function<void()> recalibrate = [&] {
      if (up.compensate) recalibrate_path(lab.record(), up.model);
    };
    if (!checks.empty() && checks.front().group == "interfere") {
      run_interfere_checks(name, checks, runner, up.mountpoint, options, summary);
    } else {
      run_lab_checks(name, checks, runner, options, summary, recalibrate);
    }
    if (!summary.interrupted && planned.fs == "none") run_repetitions(planned.preset, comparisons, runner, runs);
  }
  CheckRunner runner(work, "", false);
  judge_comparisons(comparisons, runs, runner, options, summary);
}

}  // namespace

SelftestSummary run_selftest(const SelftestOptions& options) {
  const Clock::time_point start = Clock::now();
  SelftestSummary summary;
  const WorkDir work(options.results_dir);
  summary.busy_before = sample_cpu_busy(std::chrono::seconds(1));
  summary.realtime = enter_realtime();
  summary.fio = options.use_fio && fio_installed(work);
  if (!options.lab_dir.empty()) {
    judge_existing_lab(options, work, summary.fio, summary);
  } else {
    run_own_labs(options, work, summary.fio, summary);
  }
  if (!summary.interrupted) summary.busy_after = sample_cpu_busy(std::chrono::seconds(1));
  summary.elapsed_s = std::chrono::duration<double>(Clock::now() - start).count();
  return summary;
}

}  // namespace sluice
