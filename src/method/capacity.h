#pragma once
// sluice capacity: the highest IOPS a target serves while a latency statistic stays within a limit, found by
// searching the concurrency (iodepth x numjobs): exponential ramp, then bisection, each point run until its
// per-second series is steady (or its time share runs out), within a total time budget. Reports the whole
// curve, the answer, the knee and the thrashing point. Contract shared by `sluice capacity` and `sluice quick`.
#include <chrono>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "job/job_spec.h"
#include "run/runner.h"
#include "stats/result.h"

namespace sluice {

enum class SloStat { kMean, kP50, kP95, kP99, kP999 };
enum class ConcurrencyScale { kIodepth, kNumjobs, kBoth };

// One run segment of a point: what rank 0 of an MPI capacity run tells the other ranks to run.
struct CapacitySegment {
  std::uint32_t iodepth = 1;
  std::uint32_t numjobs = 1;
  std::chrono::nanoseconds measured{0};  // the segment's measured time (after its ramp)
  bool first = false;                    // the search's first segment (environment captured, lint run)
};
// Runs one segment's jobs and returns their result. The default (empty) is run_jobs on this host; under MPI
// (cli/capacity_mpi.cpp) every rank runs the same segment in step and the result is the aggregate.
using RunSegment = std::function<RunResult(const CapacitySegment&, const std::vector<JobSpec>&, const RunnerOptions&)>;

struct CapacityRequest {
  // The workload of one stream: every job option (filename, size, rw, bs, ioengine, direct...). iodepth and
  // numjobs are what the search varies. Several jobs = independent streams scaled together
  // (--rw=randread,randwrite gives a reader job and a writer job).
  std::vector<JobSpec> streams;
  std::chrono::nanoseconds slo{std::chrono::milliseconds(10)};
  SloStat slo_stat = SloStat::kMean;
  ConcurrencyScale scale = ConcurrencyScale::kIodepth;
  std::chrono::nanoseconds budget{std::chrono::seconds(120)};
  std::uint32_t max_concurrency = 1024;
  bool status_line = true;
  std::function<void(const std::string&)> progress;  // one line per measured point; may be empty
  // Added by the capacity implementation (defaults keep older callers working):
  bool allow_destructive = false;
  // Bisection stops when first-bad - last-good <= max(1, bisection_precision * last-good).
  double bisection_precision = 0.10;
  // Per point: unmeasured ramp before each run segment, per-sample interval of the IOPS series and the
  // steady-state window in samples. Zero durations = derived from the budget (ramp min(500 ms, budget/40),
  // interval min(250 ms, budget/80)).
  std::chrono::nanoseconds ramp_time{0};
  std::chrono::nanoseconds sample_interval{0};
  std::size_t steady_window = 5;
  // What is measured, for the report's first line, when it is not the streams (capacity --target=http).
  std::string workload;
  // Hosts (MPI ranks) that each run the streams: the concurrency of a point is iodepth x numjobs x hosts.
  std::uint32_t hosts = 1;
  RunSegment run_segment;
};

struct CapacityPoint {
  std::uint32_t iodepth = 1;
  std::uint32_t numjobs = 1;
  std::uint32_t hosts = 1;  // MPI ranks that each ran iodepth x numjobs
  // What the search varies (one host's iodepth x numjobs), and the total offered to the target.
  std::uint32_t per_host_concurrency() const noexcept { return iodepth * numjobs; }
  std::uint32_t concurrency() const noexcept { return iodepth * numjobs * hosts; }
  double iops = 0;
  double lat_mean_ns = 0;
  std::uint64_t lat_p50_ns = 0;
  std::uint64_t lat_p95_ns = 0;
  std::uint64_t lat_p99_ns = 0;
  std::uint64_t lat_p999_ns = 0;
  double runtime_s = 0;
  bool steady = false;  // the per-second series passed the steady-state test
  bool within_slo = false;
  double transactions_per_s = 0;  // rw=randrmw: read-then-write pairs per second; 0 otherwise
  bool interrupted = false;       // the measurement was cut short by SIGINT
};

struct CapacityResult {
  std::vector<CapacityPoint> curve;        // in concurrency order
  std::optional<CapacityPoint> answer;     // best IOPS within the limit; none if even 1 exceeds it
  std::optional<CapacityPoint> knee;       // the most IOPS per latency (Kleinrock's power): beyond it, latency
  std::optional<CapacityPoint> thrashing;  // where more concurrency loses IOPS, if reached
  RunResult final_run;                     // the full result of the answer's point (fio-style jobs)
  double elapsed_s = 0;
  bool budget_exhausted = false;
  bool interrupted = false;  // SIGINT: the curve holds what was measured until then
  std::string stop_reason;   // why the ramp ended ("latency limit exceeded at concurrency 32")
};

// The rules, stated once (docs/capacity.md and the JSON "rules" say the same).
inline constexpr double kThrashingLoss = 0.05;  // thrashing: IOPS > 5% below the best at lower concurrency
inline constexpr double kPlateauGain = 0.05;    // ramp stops after two doublings that each add < 5% IOPS
// The ramp also stops after two doublings in a row that are each > kThrashingLoss below the best.

// Dependent io (rw=randrmw): do c streams give c times one stream's transactions/s? The scaling efficiency
// of a point is transactions/s / ((c / c0) x transactions/s at c0), c0 the curve's lowest concurrency (1, or
// the number of hosts under MPI); the report names the first concurrency whose efficiency falls below
// kScalingFloor.
inline constexpr double kScalingFloor = 0.80;
// nullopt when the curve's lowest-concurrency point has no transactions, or `point` has none.
std::optional<double> scaling_efficiency(const std::vector<CapacityPoint>& curve, const CapacityPoint& point);
// The lowest-concurrency point of a curve sorted by concurrency whose efficiency is < kScalingFloor.
std::optional<CapacityPoint> scaling_limit(const std::vector<CapacityPoint>& curve);

// Measures one point (iodepth x numjobs) within `share` of wall time; sets runtime_s to the wall time
// spent (ramp included) and within_slo is set by the search. nullopt: stopped before anything was measured.
using MeasurePoint = std::function<std::optional<CapacityPoint>(std::uint32_t iodepth, std::uint32_t numjobs,
                                                                std::chrono::nanoseconds share)>;

// The search itself, a pure function of the measurements (tests drive it with a synthetic device): ramp
// 1, 2, 4, ... until the statistic exceeds the limit, IOPS drop (thrashing) or plateau, then bisection
// between the last good and the first bad concurrency. Budget accounting uses the points' runtime_s.
// Fills curve, answer, knee, thrashing, budget_exhausted, interrupted, stop_reason (not final_run).
CapacityResult search_capacity(const CapacityRequest& request, const MeasurePoint& measure);

// How a total concurrency is split for a scale: iodepth -> (c, 1), numjobs -> (1, c), both -> numjobs the
// largest power of two whose square is <= c, iodepth = c / numjobs (so the product may be below c).
std::pair<std::uint32_t, std::uint32_t> split_concurrency(std::uint32_t concurrency, ConcurrencyScale scale);

// Knee and thrashing of a curve sorted by concurrency (rules above); nullopt when not reached.
std::optional<CapacityPoint> find_knee(const std::vector<CapacityPoint>& curve);
std::optional<CapacityPoint> find_thrashing(const std::vector<CapacityPoint>& curve);

// Parsing of the command-line values, with errors naming the option and the valid values.
SloStat parse_slo_stat(std::string_view text);        // mean|p50|p95|p99|p99.9
ConcurrencyScale parse_scale(std::string_view text);  // iodepth|numjobs|both
std::string_view scale_name(ConcurrencyScale scale);

// Throws UserError for bad requests (no stream, slo <= 0). Honors SIGINT: returns what was measured.
CapacityResult find_capacity(const CapacityRequest& request);

// The jobs and runner options of a segment, as find_capacity runs them (an MPI follower rank runs the same
// for rank 0's segment). The options carry no lint: find_capacity installs it on its first segment.
std::vector<JobSpec> capacity_segment_jobs(const CapacityRequest& request, const CapacitySegment& segment);
RunnerOptions capacity_segment_options(const CapacityRequest& request, const CapacitySegment& segment);

std::uint64_t slo_stat_value(const CapacityPoint& point, SloStat stat);  // the statistic compared with the slo
std::string_view slo_stat_name(SloStat stat);                            // "mean", "p50", ..., "p99.9"

std::string render_capacity_table(const CapacityRequest& request, const CapacityResult& result);
nlohmann::json capacity_json(const CapacityRequest& request, const CapacityResult& result);  // "capacity" block

}  // namespace sluice
