#pragma once
// The files of --interval-log and --metrics-file, fed with the run's progress at every interval (the same
// snapshots as --status-interval's reports) and with the final result at the end (report/interval_log.h).
#include <map>
#include <string>
#include <tuple>
#include <utility>

#include "report/interval_log.h"

namespace sluice {

class IntervalOutputs {
 public:
  // Either path may be empty (that output is off). The interval log is emptied at the first interval.
  IntervalOutputs(std::string interval_log, std::string metrics_file)
      : interval_log_(std::move(interval_log)), metrics_file_(std::move(metrics_file)) {}

  bool active() const noexcept { return !interval_log_.empty() || !metrics_file_.empty(); }
  // Appends each job's interval since the last call to the interval log and rewrites the metrics file (a
  // temporary file renamed over it, so node_exporter never reads half a file). Throws UserError naming the
  // option and the reason when a file cannot be written.
  void record(const RunResult& progress);

 private:
  std::string interval_log_;
  std::string metrics_file_;
  bool log_started_ = false;
  IntervalTracker tracker_;
  std::map<std::tuple<int, std::string, int>, JobInterval> latest_;  // (group, job, clone) -> its last interval
};

}  // namespace sluice
