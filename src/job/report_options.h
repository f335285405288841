#pragma once
// ReportOptions and the types of its fields: a part of JobSpec (job/job_spec.h composes the parts). Include this
// header, not job_spec.h, where only this part is needed.
#include <cstdint>
#include <string>
#include <vector>

namespace sluice {

// What is measured of the job and how it is reported: groups, percentiles, averaging windows, units.
struct ReportOptions {
  bool group_reporting = false;
  bool stats = true;      // false: the job runs but is left out of every report and total (fio's stats=0)
  bool disk_util = true;  // false: the devices under this job's files are not in disk_util
  std::vector<double> percentile_list = {1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};
  bool clat_percentiles = true;
  bool lat_percentiles = false;
  bool slat_percentiles = false;
  // fio's block_error_percentiles: per trim block of the file, trims until it failed (stats/block_lifetimes.h)
  bool block_error_percentiles = false;
  // fio's --profile=act: the job's latencies are counted per slice of this length against ACT's pass criteria
  // (stats/act_slices.h); 0 = not a job of the act profile. Set by the profile, not an option.
  std::uint64_t act_slice_ns = 0;
  std::uint64_t act_duration_ns = 0;  // the profile's test-duration (the slices it is cut into)
  std::uint32_t kb_base = 1024;
  std::uint32_t bw_avg_msec = 500;    // fio's bwavgtime: the window of each JSON bw_* sample
  std::uint32_t iops_avg_msec = 500;  // fio's iopsavgtime: the same for iops_*
  bool unified_rw_reporting = false;
  std::uint32_t significant_figures = 4;  // digits of IOPS, bandwidth and sizes in the normal output (1-10)
  bool unit_base_bits = false;            // fio's unit_base=1: bandwidths in bit/s in the normal output
  std::string clocksource;  // fio's clocksource (the run's clock): "", "gettimeofday", "clock_gettime" or "cpu"
  bool disable_lat = false;
  bool disable_clat = false;
  bool disable_slat = false;
  bool disable_bw = false;  // no per-io bandwidth log lines (fio's disable_bw_measurement)
};

}  // namespace sluice
