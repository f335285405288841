#include "method/quick.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "common/error.h"
#include "engine/engine.h"
#include "observe/environment.h"
#include "run/runner.h"
#include "spec/units.h"

namespace sluice {
namespace {

struct QuickTest {
  const char* label;
  RwMode rw;
  std::uint64_t bs;
  std::uint32_t iodepth;
};

constexpr QuickTest kTests[] = {
    {"1 MiB sequential write, depth 8", RwMode::kWrite, 1 << 20, 8},
    {"1 MiB sequential read, depth 8", RwMode::kRead, 1 << 20, 8},
    {"4 KiB random read, depth 1", RwMode::kRandRead, 4096, 1},
    {"4 KiB random read, depth 32", RwMode::kRandRead, 4096, 32},
    {"4 KiB random write, depth 1", RwMode::kRandWrite, 4096, 1},
    {"4 KiB random write, depth 32", RwMode::kRandWrite, 4096, 32},
};

// Removes the temporary directory and everything sluice put in it, whatever happens.
class TempDir {
 public:
  explicit TempDir(const std::string& parent) {
    std::error_code ec;
    if (!std::filesystem::is_directory(parent, ec)) throw UserError(fmt::format("{}: not a directory", parent));
    std::string pattern = (std::filesystem::path(parent) / "sluice-quick-XXXXXX").string();
    if (!mkdtemp(pattern.data())) {
      throw UserError(fmt::format("{}: cannot create a temporary directory: {}", parent, std::strerror(errno)));
    }
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

bool supports_o_direct(const std::string& dir) {
  const std::string probe = dir + "/.direct-probe";
  const int fd = ::open(probe.c_str(), O_CREAT | O_RDWR | O_DIRECT, 0600);
  if (fd >= 0) ::close(fd);
  ::unlink(probe.c_str());
  return fd >= 0;
}

EngineKind best_async_engine() {
  try {
    auto engine = make_engine(EngineKind::kIoUring);
    EngineSetup setup;
    engine->open(setup);
    engine->close();
    return EngineKind::kIoUring;
  } catch (const std::exception&) {
    return EngineKind::kLibaio;
  }
}

JobSpec quick_job(const QuickTest& test, const std::string& file, const QuickOptions& options, EngineKind engine,
                  bool direct) {
  JobSpec job;
  job.name = test.label;
  job.filenames = {file};
  job.size.bytes = options.file_size;
  job.rw = test.rw;
  job.bs = {test.bs, test.bs, test.bs};
  job.ioengine = engine;
  job.iodepth = test.iodepth;
  job.iodepth_batch_submit = 1;
  job.direct = direct;
  job.runtime = options.runtime;
  job.ramp_time = options.ramp_time;
  job.time_based = true;
  job.stonewall = true;
  job.percentile_list = {50, 99, 99.9};
  return job;
}

}  // namespace

QuickReport run_quick(const QuickOptions& options) {
  TempDir dir(options.directory);
  QuickReport report;
  report.file = dir.path() + "/testfile";
  report.file_size = options.file_size;
  report.direct = supports_o_direct(dir.path());
  const EngineKind engine = best_async_engine();
  report.engine = std::string(engine_name(engine));

  std::vector<JobSpec> jobs;
  for (const QuickTest& test : kTests) jobs.push_back(quick_job(test, report.file, options, engine, report.direct));
  RunnerOptions runner;
  runner.status_line = options.status_line;
  report.run = run_jobs(jobs, runner);
  if (!report.direct) {
    Problem warning;
    warning.severity = Problem::Severity::kWarning;
    warning.option = "direct";
    warning.message = "the filesystem refuses O_DIRECT: buffered I/O measures the page cache too";
    report.run.warnings.push_back(std::move(warning));
  }
  for (std::size_t i = 0; i < report.run.groups.size() && i < std::size(kTests); ++i) {
    const JobResult job = report.run.groups[i].aggregate();
    const Direction d = kTests[i].rw == RwMode::kWrite || kTests[i].rw == RwMode::kRandWrite ? Direction::kWrite
                                                                                             : Direction::kRead;
    const DirectionStats& s = job.dirs[index_of(d)];
    QuickRow row;
    row.test = kTests[i].label;
    row.direction = d;
    const double seconds = static_cast<double>(job.runtime_ns) / 1e9;
    row.iops = seconds > 0 ? static_cast<double>(s.ios) / seconds : 0;
    row.bytes_per_second = seconds > 0 ? static_cast<double>(s.bytes) / seconds : 0;
    row.lat_mean_ns = s.lat.moments.mean();
    row.lat_p99_ns = s.lat.histogram.percentile(99);
    row.lat_p999_ns = s.lat.histogram.percentile(99.9);
    report.rows.push_back(row);
  }
  report.run.extra["quick"] = quick_summary_json(report);
  return report;
}

std::string render_quick_table(const QuickReport& report) {
  std::string out = fmt::format("sluice quick: {} ({}), {}, {} I/O, each test {}\n", report.file,
                                format_bytes(static_cast<double>(report.file_size)), report.engine,
                                report.direct ? "direct" : "buffered", "measured after a 1 s ramp");
  if (!report.run.environment.empty()) out += environment_summary(report.run.environment) + "\n";
  out += fmt::format("\n{:<34} {:>10} {:>24} {:>11} {:>11} {:>11}\n", "test", "IOPS", "bandwidth", "lat mean",
                     "lat p99", "lat p99.9");
  for (const QuickRow& row : report.rows) {
    out += fmt::format("{:<34} {:>10.0f} {:>24} {:>11} {:>11} {:>11}\n", row.test, row.iops,
                       format_bandwidth(row.bytes_per_second), format_duration_ns(row.lat_mean_ns),
                       format_duration_ns(static_cast<double>(row.lat_p99_ns)),
                       format_duration_ns(static_cast<double>(row.lat_p999_ns)));
  }
  if (report.run.interrupted) out += "\ninterrupted: the table shows the tests measured so far\n";
  out += "\nlat = issue to completion of each I/O; percentiles within 0.78%. The test file was removed.\n";
  return out;
}

nlohmann::json quick_summary_json(const QuickReport& report) {
  nlohmann::json rows = nlohmann::json::array();
  for (const QuickRow& row : report.rows) {
    rows.push_back({{"test", row.test},
                    {"direction", std::string(direction_name(row.direction))},
                    {"iops", row.iops},
                    {"bw_bytes", row.bytes_per_second},
                    {"lat_mean_ns", row.lat_mean_ns},
                    {"lat_p99_ns", row.lat_p99_ns},
                    {"lat_p999_ns", row.lat_p999_ns}});
  }
  return {{"file", report.file}, {"file_size", report.file_size}, {"engine", report.engine},
          {"direct", report.direct}, {"tests", rows}};
}

}  // namespace sluice
