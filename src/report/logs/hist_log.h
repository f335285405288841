#pragma once
// HistLog: fio's completion-latency histogram log (write_hist_log, log_hist_msec) for one job clone.
// Format (fio 3.33, read by fiologparser_hist.py): one line per window and direction the job issues,
//   "<msec>, <ddir>, <bs>, <bin 0>, ..., <bin 1855>"
// where the bins are the clat counts of ios completed in the window (not cumulative), in fio's layout
// (64 bins per power of two, 29 groups, in ns). sluice's LatencyHistogram uses the same index function, so
// bin i is sluice bucket i; sluice's buckets beyond fio's last bin (>= ~17 s) are added into the last bin.
// log_hist_msec=0 writes one line per direction at the end for the whole run (fio writes nothing).
// log_hist_coarseness=N sums each 2^N neighbouring bins into one value (1856 >> N values), as fio.
// File: PREFIX_clat_hist.N.log (N = clone number from 1), or PREFIX_clat_hist.log shared by all jobs with
// per_job_logs=0.
// Threads: owned by one worker; a shared file is appended to with whole lines per write.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "job/job_spec.h"
#include "report/logs/log_epoch.h"
#include "report/logs/log_naming.h"
#include "stats/latency_histogram.h"
#include "stats/result.h"

namespace sluice {

class HistLog {
 public:
  static constexpr int kFioBins = 1856;  // fio's FIO_IO_U_PLAT_NR (29 groups x 64)

  // nullptr unless write_hist_log is set.
  static std::unique_ptr<HistLog> create(const JobSpec& job, int lognum);
  HistLog(const JobSpec& job, int lognum);
  ~HistLog();
  HistLog(const HistLog&) = delete;
  HistLog& operator=(const HistLog&) = delete;

  // Cheap unless a window ended: t_ns is the time since the measured start; dirs: the job's statistics.
  void update(std::uint64_t t_ns, const PerDirection<DirectionStats>& dirs) {
    if (window_ns_ != 0 && t_ns >= next_ns_) write_windows(t_ns, dirs);
  }
  // The job's statistics started over: the next window counts from the new start.
  void restart() noexcept {
    before_ = {};
    next_ns_ = window_ns_;
  }
  // Writes the last (partial) window when it saw ios, and closes the file.
  void finish(std::uint64_t t_ns, const PerDirection<DirectionStats>& dirs);

 private:
  void write_windows(std::uint64_t t_ns, const PerDirection<DirectionStats>& dirs);
  void write_line(std::uint64_t time_ms, int d, const LatencyHistogram& now);

  std::FILE* file_ = nullptr;
  bool shared_ = false;
  std::uint64_t window_ns_ = 0;
  std::uint64_t next_ns_ = 0;
  int stride_ = 1;  // bins summed per value: 2^log_hist_coarseness
  PerDirection<bool> issued_{};
  PerDirection<std::uint64_t> block_size_{};
  PerDirection<LatencyHistogram> before_{};
  std::string line_;
  LogEpoch epoch_;
};

}  // namespace sluice
