#pragma once
// Aggregation of many ranks' results of one group into the figures of the whole cluster. Pure functions of
// the ranks' reports: rank 0 calls them after the gather; the tests feed them synthetic ranks.
//
// - Times: each rank's start/end (monotonic, its own clock) minus its clock offset gives rank 0's clock.
// - window: every io of every rank over min(start) -> max(end) (IOR's access time).
// - all_active: the ios done while every rank was measuring, max(start) -> min(end) (elbencho's "first
//   done"), counted from each rank's per-interval series (an interval cut by the window counts pro rata,
//   so the figure is exact to the ios of one series interval at each edge).
// - Latency: the ranks' histograms added bucket by bucket and their moments merged, so percentiles, min,
//   max and mean are those of all ios. Per-rank rates are never added.
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "mpi/world.h"
#include "stats/result.h"

namespace sluice::mpi {

// One rank's stonewall wear-out of one group (--mpi-wearout): what it had done by the deadline and what it
// did after, to catch up with the busiest rank.
struct RankWearOut {
  std::uint64_t deadline_ios = 0;  // the group's ios by the deadline (its measured run)
  std::uint64_t extra_ios = 0;     // ios of the wear-out
  std::uint64_t extra_bytes = 0;
  std::uint64_t start_ns = 0;  // the wear-out's start and end on the rank's own clock; 0 when it had
  std::uint64_t end_ns = 0;    // nothing to catch up
};

// What one rank sends to rank 0 after its run.
struct RankReport {
  int rank = 0;
  std::string host;
  ClockOffset clock;    // filled in by rank 0 (the rank does not know it)
  std::string failure;  // why this rank stopped early (an error before or while measuring); empty if none
  bool interrupted = false;
  int stop_signal = 0;      // the signal that stopped this rank itself (0: none, or stopped by another's)
  std::string environment;  // the rank's sluice.environment as JSON text
  std::vector<GroupResult> groups;
  std::vector<RankWearOut> wearout;  // per group, with --mpi-wearout; empty otherwise
};

// Serialization for the gather (full results: histograms and series included).
std::string encode_rank_report(const RankReport& report);
RankReport decode_rank_report(const std::string& text);

// An amount of work over a span of time (rank 0's clock).
struct WindowFigures {
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  double ios = 0;
  double bytes = 0;
  std::uint64_t span_ns() const noexcept {
    return end_ns > start_ns ? static_cast<std::uint64_t>(end_ns - start_ns) : 0;
  }
  double iops() const noexcept;  // ios per second over the span (0 for an empty span)
  double bytes_per_second() const noexcept;
};

// One rank's figures in one group: its jobs merged.
struct HostFigures {
  int rank = 0;
  std::string host;
  JobResult job;              // the rank's jobs of the group merged (runtime = the rank's own)
  std::int64_t start_ns = 0;  // on rank 0's clock
  std::int64_t end_ns = 0;
  std::int64_t start_skew_ns = 0;  // start - earliest start of all ranks
  std::int64_t end_skew_ns = 0;    // latest end of all ranks - end
  WindowFigures own;               // the rank's ios over its own start -> end
};

struct GroupAggregate {
  int groupid = 0;
  std::vector<HostFigures> hosts;  // in rank order, ranks that ran the group
  JobResult all;                   // every rank's jobs merged; runtime_ns = the window's span
  WindowFigures window;            // min start -> max end
  WindowFigures all_active;        // max start -> min end (empty span when the ranks never overlapped)
  std::int64_t max_start_skew_ns = 0;
};

// The ios and bytes of `job` (started at start_ns on rank 0's clock) done within [from, to): from its
// per-interval series, an interval cut by the bounds counting pro rata; without a series, its totals pro
// rata of its runtime.
WindowFigures work_within(const JobResult& job, std::int64_t start_ns, std::int64_t from, std::int64_t to);

// The wear-out of one group over all ranks (IOR's stonewall wear-out): every rank ends with as many ios as
// the busiest did by the deadline, so the total is over the time until the last rank caught up.
struct HostWearOut {
  int rank = 0;
  std::string host;
  RankWearOut figures;
  double seconds = 0;  // the wear-out's own duration on this rank (0: nothing to catch up)
};
struct GroupWearOut {
  std::vector<HostWearOut> hosts;
  WindowFigures total;  // every io, measured and worn out, from the first start to the last rank's end
  std::uint64_t deadline_min_ios = 0;
  std::uint64_t deadline_max_ios = 0;
};

// nullopt when no rank reported a wear-out for group `index`.
std::optional<GroupWearOut> aggregate_wearout(const std::vector<RankReport>& ranks, std::size_t index,
                                              const GroupAggregate& group);

// Aggregates group `index` (position in each rank's groups) over the ranks that have it. Throws UserError when
// the ranks' histograms have different layouts (from_json refuses them earlier) or no rank ran the group.
GroupAggregate aggregate_group(const std::vector<RankReport>& ranks, std::size_t index);

}  // namespace sluice::mpi
