#pragma once
// LogOptions and the types of its fields: a part of JobSpec (job/job_spec.h composes the parts). Include this
// header, not job_spec.h, where only this part is needed.
#include <cstdint>
#include <string>

namespace sluice {

// fio's per-job log files (write_*_log and their format) and per-io log columns.
struct LogOptions {
  std::string write_lat_log;
  std::string write_iops_log;
  std::string write_bw_log;
  std::uint32_t log_avg_msec = 0;
  bool log_max_value = false;            // with log_avg_msec, a latency log line is the window's maximum, not mean
  bool log_unix_epoch = false;           // log times from the clock's epoch (Unix time), not the job's start
  bool log_alternate_epoch = false;      // the same with log_alternate_epoch_clock_id's clock
  int log_alternate_epoch_clock_id = 0;  // clock_gettime's clock id (0: CLOCK_REALTIME)
  bool log_offset = false;               // add the io's offset column to per-io logs (fio's log_offset)
  std::uint64_t log_compression = 0;     // fio's in-memory chunk size; with log_store_compressed, logs are zlib files
  bool log_store_compressed = false;     // write each log as NAME.fz (zlib streams), as fio --inflate-log reads
  std::string write_hist_log;
  std::uint32_t log_hist_msec = 0;
  std::uint32_t log_hist_coarseness = 0;  // histogram logs merge 2^N neighbouring bins
  bool per_job_logs = true;
  bool log_prio = false;  // per-io logs carry each io's priority value, not "is realtime"
};

}  // namespace sluice
