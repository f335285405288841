#pragma once
// JobLogs: fio-format per-io logs of one job clone (write_lat_log, write_iops_log, write_bw_log,
// log_avg_msec), written with fio's file names so fio's own tools (fiologparser.py) read them.
// The worker calls record() for every measured io when logs were asked for, and finish() at the end.
// Threads: owned by one worker, not shared. record() does not allocate per call on average (buffered).
#include <cstdint>
#include <memory>
#include <string>

#include "common/direction.h"

namespace sluice {

struct JobSpec;  // job/job_spec.h

class JobLogs {
 public:
  // nullptr when the job asks for no log. Throws UserError when a log file cannot be created.
  static std::unique_ptr<JobLogs> create(const JobSpec& job, int lognum);  // lognum: JobInstance::lognum
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
