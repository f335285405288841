#include "cli/interval_outputs.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <vector>

#include "common/error.h"

namespace sluice {

void IntervalOutputs::record(const RunResult& progress) {
  const std::vector<JobInterval> intervals = tracker_.advance(progress);
  if (!interval_log_.empty()) {
    std::ofstream log(interval_log_, log_started_ ? std::ios::app : std::ios::trunc);
    for (const JobInterval& interval : intervals) log << interval_line(interval) << '\n';
    log.flush();
    if (!log) {
      throw UserError(fmt::format("--interval-log={}: cannot write the file: {}", interval_log_, std::strerror(errno)));
    }
    log_started_ = true;
  }
  if (metrics_file_.empty()) return;
  for (const JobInterval& interval : intervals) latest_[{interval.groupid, interval.name, interval.jobnum}] = interval;
  std::vector<JobInterval> latest;
  for (const auto& [key, interval] : latest_) latest.push_back(interval);
  const std::string text = render_openmetrics(latest);
  const std::string temporary = metrics_file_ + ".tmp";  // the textfile collector reads only *.prom
  std::ofstream out(temporary, std::ios::trunc);
  out << text;
  out.close();
  if (!out || std::rename(temporary.c_str(), metrics_file_.c_str()) != 0) {
    const int error_number = errno;
    std::remove(temporary.c_str());
    throw UserError(
        fmt::format("--metrics-file={}: cannot write the file: {}", metrics_file_, std::strerror(error_number)));
  }
}

}  // namespace sluice
