#include "report/unified.h"

#include <algorithm>

namespace sluice::report {

JobResult merge_directions(const JobResult& job) {
  JobResult merged = job;
  for (int d = 1; d < kNumDirections; ++d) {
    merge_direction(merged.dirs[0], job.ioprio, job.dirs[d], job.ioprio, job.settings.lat_percentiles);
    merged.dirs[d] = DirectionStats{};
  }
  // Per-interval samples of the mixed direction: the sum of the directions in each interval.
  merged.dirs[0].iops_samples = Moments{};
  merged.dirs[0].bw_samples = Moments{};
  const double interval_s = static_cast<double>(job.series.interval_ns()) / 1e9;
  if (interval_s > 0 && merged.dirs[0].ios > 0) {
    for (const auto& sample : job.series.samples()) {
      double ops = 0, bytes = 0;
      for (const auto& s : sample) {
        ops += static_cast<double>(s.ops);
        bytes += static_cast<double>(s.bytes);
      }
      merged.dirs[0].iops_samples.add(ops / interval_s);
      merged.dirs[0].bw_samples.add(bytes / interval_s);
    }
  }
  return merged;
}

GroupResult merge_directions(const GroupResult& group) {
  GroupResult merged = group;
  for (JobResult& job : merged.jobs) job = merge_directions(job);
  return merged;
}

GroupDirectionTotals mixed_totals(const PerDirection<GroupDirectionTotals>& totals) {
  GroupDirectionTotals out;
  for (const GroupDirectionTotals& t : totals) {
    out.io_bytes += t.io_bytes;
    out.agg_bw_bytes += t.agg_bw_bytes;
    out.min_bw_bytes += t.min_bw_bytes;
    out.max_bw_bytes += t.max_bw_bytes;
    out.min_run_ms = std::max(out.min_run_ms, t.min_run_ms);
    out.max_run_ms = std::max(out.max_run_ms, t.max_run_ms);
    out.active = out.active || t.active;
  }
  return out;
}

bool unified_both(const std::map<std::string, std::string>& options) {
  const auto it = options.find("unified_rw_reporting");
  return it != options.end() && (it->second == "both" || it->second == "2");
}

}  // namespace sluice::report
