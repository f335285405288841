#pragma once
// Shared computations of the reporters (JSON and normal text): rates, fio's latency and depth buckets,
// group totals. Pure functions of the Result; nothing here formats text.
#include <array>
#include <cmath>
#include <cstdint>
#include <string_view>
#include <vector>

#include "common/direction.h"
#include "stats/result.h"

namespace sluice::report {

// Reports never carry NaN or infinity (nlohmann would write null): such values become 0.
inline double finite_or_zero(double x) noexcept { return std::isfinite(x) ? x : 0.0; }

// A float for the JSON reports: finite, and rounded to 6 decimals as fio prints its floats ("%.6f").
inline double json_float(double x) noexcept {
  x = finite_or_zero(x);
  return std::fabs(x) < 1e12 ? std::round(x * 1e6) / 1e6 : x;
}

// Whether the job passes some errors (continue_on_error other than none, or a non-empty ignore_error): fio
// writes total_err and first_error (JSON) and the error fields (terse) only then.
bool continues_on_error(const JobResult& job);
// The errno of the first error continue_on_error passed (from error_message), 0 when none.
int first_passed_error(const JobResult& job);
// fio's "error" of a job: the error that ended it, else (when it passes errors) the first one it passed.
int reported_error(const JobResult& job);

// Nanoseconds to whole milliseconds, rounded to nearest (fio reports runtimes in ms).
inline std::uint64_t ns_to_ms(std::uint64_t ns) noexcept { return (ns + 500'000) / 1'000'000; }

// One direction of one job, as fio's per-direction JSON and header line show it. Rates use the exact
// measured runtime in ns (fio divides by whole ms); a direction that did no I/O has runtime 0 and zero rates.
struct DirectionRates {
  std::uint64_t io_bytes = 0;
  std::uint64_t bw_bytes = 0;  // bytes per second
  std::uint64_t bw_kib = 0;    // KiB per second (1024, as fio's "bw" whatever kb_base)
  double iops = 0;
  std::uint64_t runtime_ns = 0;
  std::uint64_t runtime_ms = 0;
};
DirectionRates direction_rates(const JobResult& job, Direction d);

// fio's latency ranges (io_u_lat_n / _u / _m): a value lands in the first range whose label exceeds it,
// e.g. label "50" holds [20, 50). The ms list adds "2000" and ">=2000".
inline constexpr std::array<std::string_view, 10> kLatencyLabels = {"2",   "4",   "10",  "20",  "50",
                                                                    "100", "250", "500", "750", "1000"};
inline constexpr std::array<std::string_view, 12> kLatencyMsLabels = {"2",   "4",   "10",  "20",   "50",   "100",
                                                                      "250", "500", "750", "1000", "2000", ">=2000"};

// Percent of all completed I/Os (read + write + trim) in each range, from the clat histograms (fio tallies
// completion latency; lat is used where a job recorded no clat). Non-zero shares below 0.01% show as 0.01%,
// as fio does.
struct LatencyBuckets {
  std::array<double, 10> ns{};
  std::array<double, 10> us{};
  std::array<double, 12> ms{};
};
LatencyBuckets latency_buckets(const JobResult& job);

// Share in percent of each bucket of a distribution; non-zero shares below 0.1% show as 0.1% (fio).
std::array<double, 7> depth_percentages(const std::array<std::uint64_t, 7>& counts, std::uint64_t total);
inline constexpr std::array<std::string_view, 7> kDepthLevelLabels = {"1", "2", "4", "8", "16", "32", ">=64"};
inline constexpr std::array<std::string_view, 7> kDepthBatchLabels = {"0", "4", "8", "16", "32", "64", ">=64"};

// Per-direction totals of a group ("Run status group N"): summed bytes over the jobs' widest runtime,
// slowest and fastest job, shortest and longest runtime. Only jobs that did I/O in the direction count.
struct GroupDirectionTotals {
  std::uint64_t io_bytes = 0;
  std::uint64_t agg_bw_bytes = 0;
  std::uint64_t min_bw_bytes = 0;
  std::uint64_t max_bw_bytes = 0;
  std::uint64_t min_run_ms = 0;
  std::uint64_t max_run_ms = 0;
  bool active = false;
};
PerDirection<GroupDirectionTotals> group_totals(const GroupResult& group);

// fio's "per" / "bw_agg": the job's mean sampled bandwidth as a percent of the group's aggregate, at most 100.
double percent_of_group(double mean_bw_bytes, std::uint64_t group_agg_bw_bytes);

// How many of the direction's priorities had ios: fio shows its per-priority latency ("prios", "clat prio
// C/L") only when two or more did.
int prios_with_samples(const DirectionStats& dir) noexcept;

// The entries a report shows for a group: every job, or one merged entry under group_reporting.
// For each entry, how many job clones it stands for (fio's "jobs=N") and the sum of their runtimes (fio's
// "job_runtime" and the base of usr_cpu / sys_cpu under group_reporting).
struct ReportedJob {
  JobResult job;
  std::uint64_t jobs = 1;
  std::uint64_t summed_runtime_ns = 0;
  // With SeriesCopy::kBorrow, an unmerged job's copy has an empty series and this points at the group's.
  const TimeSeries* borrowed_series = nullptr;
  const TimeSeries& series() const noexcept { return borrowed_series ? *borrowed_series : job.series; }
};
// kBorrow leaves the per-interval series in the group (a long run's largest part) for reporters that only
// read them while the group lives; a merged group's series is always the entry's own.
enum class SeriesCopy { kCopy, kBorrow };
// Background jobs (role=background) are not among them, nor in group_totals: they are reported apart.
// Jobs with stats=0 are in none of them.
std::vector<ReportedJob> reported_jobs(const GroupResult& group, SeriesCopy series = SeriesCopy::kCopy);
// The group's background jobs, one entry per clone, in start order.
std::vector<ReportedJob> background_jobs(const GroupResult& group, SeriesCopy series = SeriesCopy::kCopy);
// Totals of one background job as if it were a group of its own (its "bw_agg" base).
PerDirection<GroupDirectionTotals> background_totals(const JobResult& job);
// The group without its background jobs.
GroupResult foreground_of(const GroupResult& group);

}  // namespace sluice::report
