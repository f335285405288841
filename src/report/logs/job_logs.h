#pragma once
// JobLogs: fio-format per-io logs of one job clone (write_lat_log, write_iops_log, write_bw_log,
// log_avg_msec), written with fio's file names so fio's own tools (fiologparser.py) read them.
// The worker calls record() for every measured io when logs were asked for, and finish() at the end.
// Threads: owned by one worker, not shared. record() does not allocate per call on average (buffered).
#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "common/direction.h"
#include "job/log_options.h"
#include "job/report_options.h"

namespace sluice {

struct JobSpec;  // job/job_spec.h

// What JobLogs reads of a job: its log options, the statistics it disabled (report), whether its engine has a
// submission latency, and the directions it issues. A view: it refers to the job, which must outlive it.
struct LoggedJob {
  // Not explicit, as std::string_view from a string: logs are made for a job (JobLogs::create(job, ...)).
  LoggedJob(const JobSpec& job);

  const LogOptions& logs;
  const ReportOptions& report;
  bool engine_has_slat = false;
  std::array<bool, kNumDirections> issued{};  // by Direction: idle windows log 0 for these
};

class JobLogs {
 public:
  // nullptr when the job asks for no log. Throws UserError when a log file cannot be created.
  static std::unique_ptr<JobLogs> create(const LoggedJob& job, int lognum);  // lognum: JobInstance::lognum
  virtual ~JobLogs() = default;

  // t_ns: time since the job's measured start. Latencies in ns; bytes: transferred; offset: of the io;
  // priority: the io's priority value (class << 13 | level, 0 = none).
  virtual void record(Direction d, std::uint64_t t_ns, std::uint64_t lat_ns, std::uint64_t clat_ns,
                      std::uint64_t slat_ns, std::uint32_t bytes, std::uint64_t offset,
                      std::uint16_t priority) noexcept = 0;
  // Flushes the last (partial) averaging window and closes the files. t_ns: end of the measured window.
  virtual void finish(std::uint64_t t_ns) = 0;
};

}  // namespace sluice
