#pragma once
// Per-interval results, which fio lacks (fio #130, #584, #672): from the run's cumulative snapshots at each
// interval (what --status-interval reports), what each job did in that interval alone: ios, bytes, and
// latency percentiles from the difference of the job's lat histogram at the interval's two ends (exact up to
// the histogram's bucket error, stats/latency_histogram.h; no sample is kept).
//  - --interval-log=FILE: one JSON line per job per interval (IntervalTracker::lines).
//  - --metrics-file=FILE.prom: an OpenMetrics text file for node_exporter's textfile collector, rewritten
//    whole at each interval (render_openmetrics; the caller renames a temporary file over it).
// Threads: used by the runner's reporting thread only.
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "stats/result.h"

namespace sluice {

// One job's interval in one direction.
struct IntervalDirection {
  std::uint64_t ios = 0;
  std::uint64_t bytes = 0;
  LatencyHistogram lat;  // the ios completed in the interval
};

// One job's interval: (start_ns, end_ns] after the job's measured start, as its lat log's time column counts.
struct JobInterval {
  std::string name;
  int groupid = 0;
  int jobnum = 0;
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
  PerDirection<IntervalDirection> dirs{};
  PerDirection<std::uint64_t> total_ios{};  // since the start (the counters of the metrics file)
  PerDirection<std::uint64_t> total_bytes{};
};

class IntervalTracker {
 public:
  // The intervals of `progress` (the run so far, cumulative) since the previous call; the first call's run
  // from each job's start. A job whose snapshot did not move (not started, or ended) gives no interval.
  std::vector<JobInterval> advance(const RunResult& progress);

 private:
  struct Previous {
    std::uint64_t runtime_ns = 0;
    PerDirection<std::uint64_t> ios{};
    PerDirection<std::uint64_t> bytes{};
    PerDirection<LatencyHistogram> lat{};
  };
  std::map<std::pair<int, int>, Previous> previous_;  // (group index, job index) -> its last snapshot
};

// The percentiles every interval line and the metrics file give.
inline const std::vector<double>& interval_percentiles() {
  static const std::vector<double> kPercentiles = {50, 90, 99, 99.9};
  return kPercentiles;
}

// One JSON line (no newline) for an interval: {"job", "groupid", "jobnum", "start_ms", "end_ms", "start_ns",
// "end_ns", and per direction with ios: {"ios", "bytes", "iops", "bw_bytes", "lat_ns": {"mean", "max"...}}}.
std::string interval_line(const JobInterval& interval);

// The OpenMetrics text (ending "# EOF") of the latest intervals: per job and direction, the running totals
// (counters) and the interval's rates and latency percentiles (gauges, in seconds).
std::string render_openmetrics(const std::vector<JobInterval>& latest);

}  // namespace sluice
