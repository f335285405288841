#include "report/logs/aggregate_bw_log.h"

#include <algorithm>
#include <limits>
#include <map>

#include "report/logs/log_file.h"

namespace sluice {
namespace {

// Bytes moved per interval end (ms since the first job's start), summed over every job.
using Timeline = std::map<std::uint64_t, std::uint64_t>;

std::uint64_t first_start_ns(const RunResult& result) {
  std::uint64_t first = std::numeric_limits<std::uint64_t>::max();
  for (const GroupResult& g : result.groups) {
    for (const JobResult& j : g.jobs) first = std::min(first, j.start_ns);
  }
  return first == std::numeric_limits<std::uint64_t>::max() ? 0 : first;
}

}  // namespace

void write_aggregate_bw_logs(const RunResult& result, const std::string& directory) {
  const std::uint64_t t0 = first_start_ns(result);
  PerDirection<Timeline> timelines;
  PerDirection<std::map<std::uint64_t, std::uint64_t>> interval_of;  // interval end -> interval length (ns)
  for (const GroupResult& g : result.groups) {
    for (const JobResult& j : g.jobs) {
      const std::uint64_t interval = j.series.interval_ns();
      if (interval == 0) continue;
      for (std::size_t i = 0; i < j.series.size(); ++i) {
        const std::uint64_t end_ms = (j.start_ns - t0 + (i + 1) * interval) / 1'000'000;
        for (Direction d : kAllDirections) {
          const auto k = static_cast<std::size_t>(index_of(d));
          timelines[k][end_ms] += j.series.at(i)[k].bytes;
          interval_of[k][end_ms] = interval;
        }
      }
    }
  }
  for (Direction d : kAllDirections) {
    const auto k = static_cast<std::size_t>(index_of(d));
    LogFile file(directory + "/agg-" + std::string(direction_name(d)) + "_bw.log", false);
    // A direction without I/O leaves its file empty, as fio does.
    const bool any_io =
        std::any_of(timelines[k].begin(), timelines[k].end(), [](const auto& e) { return e.second != 0; });
    for (const auto& [end_ms, bytes] : timelines[k]) {
      if (!any_io) break;
      const double seconds = static_cast<double>(interval_of[k][end_ms]) / 1e9;
      LogLine line;
      line.time_ms = end_ms;
      line.value = static_cast<std::uint64_t>(static_cast<double>(bytes) / seconds / 1024.0);
      line.ddir = index_of(d);
      file.append(line);
    }
    file.close();
  }
}

}  // namespace sluice
