#pragma once
// The Result tree: run > group > job > direction. Plain, mergeable, serializable data; no I/O.
// Workers fill a JobResult each (one thread, no locks); the runner collects them into a RunResult;
// reporters are pure functions of a RunResult.
#include <array>
#include <bit>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/direction.h"
#include "common/error.h"
#include "stats/latency_stat.h"
#include "stats/moments.h"
#include "stats/time_series.h"

namespace sluice {

// fio's clat_prio entry: the latency of the ios issued with one priority (cmdprio). Of clat, or of lat when the
// job reports lat percentiles (fio keeps one kind per priority).
struct PrioLatency {
  std::uint16_t ioprio = 0;  // the kernel's value: class << 13 | level
  LatencyStat latency;
};

struct DirectionStats {
  std::uint64_t ios = 0;        // completed operations
  std::uint64_t bytes = 0;      // bytes completed
  std::uint64_t short_ios = 0;  // completed with fewer bytes than asked
  std::uint64_t errors = 0;     // failed operations continue_on_error passed
  std::uint64_t fatal_ios = 0;  // the failed operation that ended the job (0 or 1; fio counts it in total_ios)
  LatencyStat slat;             // submit start -> submit return (async engines only)
  LatencyStat clat;             // submit return -> completion seen
  LatencyStat lat;              // operation start (or scheduled arrival, open loop) -> completion seen
  LatencyStat queue_wait;       // open loop only: scheduled arrival -> submission (time spent queued)
  Moments iops_samples;         // per-interval IOPS, derived from the time series at the end
  Moments bw_samples;           // per-interval bandwidth in bytes/s, ditto
  // cmdprio: per priority, index 0 the job's own; empty when every io had the job's priority.
  std::vector<PrioLatency> prios;

  // Adds counts and statistics; prios add by priority value (a priority new to this side is appended).
  void merge(const DirectionStats& other);
};

// Adds one direction of another job (or host) to `into`, as JobResult::merge does: when either side keeps
// latency per priority, or the two jobs' own priorities differ, a side without the split counts all its ios
// for its job's priority (fio's sum_clat_prio_stats). use_lat: the split is of lat (lat_percentiles).
void merge_direction(DirectionStats& into, std::uint16_t into_ioprio, const DirectionStats& from,
                     std::uint16_t from_ioprio, bool use_lat);

// fsync / fdatasync issued by fsync=N, fdatasync=N, end_fsync: fio's "sync" block.
struct SyncStats {
  std::uint64_t ios = 0;
  LatencyStat lat;
  void merge(const SyncStats& other);
};

// fio's iodepth_level (share of time at each depth, sampled at submission), iodepth_submit and
// iodepth_complete (how many ios each submit / reap call handled). Buckets as fio:
// level: 1, 2, 4, 8, 16, 32, >=64 ; submit/complete: 0, 4, 8, 16, 32, 64, >=64.
// level_bucket follows fio's io_u_mark_depth: a bucket labelled N holds depths [N, 2N): 1, 2-3, 4-7, 8-15,
// 16-31, 32-63, >=64 (depth 0, which fio would put in >=64, goes to the first bucket).
// batch_bucket follows fio's io_u_mark_submit/complete: a bucket labelled N holds (N/2, N]: 0, 1-4, 5-8,
// 9-16, 17-32, 33-64, >64.
struct IodepthDistribution {
  std::array<std::uint64_t, 7> level{};
  std::array<std::uint64_t, 7> submit{};
  std::array<std::uint64_t, 7> complete{};
  std::uint64_t total_submit_calls = 0;
  std::uint64_t total_complete_calls = 0;

  // Inline: counted at every submit and reap (with a constant count, a synchronous engine's io folds to one).
  static constexpr int level_bucket(std::uint32_t depth) noexcept {  // 0,1->0, 2..3->1, 4..7->2, ... >=64->6
    if (depth <= 1) return 0;
    const int log2_floor = 31 - std::countl_zero(depth);
    return log2_floor < 6 ? log2_floor : 6;
  }
  static constexpr int batch_bucket(std::uint32_t count) noexcept {  // 0->0, 1..4->1, 5..8->2, ... >64->6
    if (count == 0) return 0;
    if (count <= 4) return 1;
    const int log2_ceil = 32 - std::countl_zero(count - 1);
    return log2_ceil - 1 < 6 ? log2_ceil - 1 : 6;
  }
  void merge(const IodepthDistribution& other);
};

struct CpuUsage {
  double user_seconds = 0;
  double system_seconds = 0;
  std::uint64_t context_switches = 0;  // voluntary + involuntary
  std::uint64_t major_faults = 0;
  std::uint64_t minor_faults = 0;
  void merge(const CpuUsage& other);
};

// How the job was set up, as far as reports need it (the fio header line, percentile selection).
struct JobReportSettings {
  std::string rw = "read";  // fio spelling
  std::string ioengine = "psync";
  std::uint32_t iodepth = 1;
  PerDirection<std::uint64_t> bs_min = {4096, 4096, 4096};
  PerDirection<std::uint64_t> bs_max = {4096, 4096, 4096};
  std::vector<double> percentile_list = {1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};
  bool clat_percentiles = true;
  bool lat_percentiles = false;
  bool slat_percentiles = false;
  std::uint32_t kb_base = 1024;
  int significant_figures = 4;  // fio's significant_figures: digits of IOPS, bandwidth and sizes in the normal output
  bool bandwidth_in_bits = false;  // fio's unit_base=1: the normal output's bandwidths in bit/s
  bool time_based = false;
  bool unified_rw_reporting = false;  // fio's unified_rw_reporting: report read+write+trim as "mixed"
  bool open_loop = false;
  bool background = false;  // role=background: reported apart from the group's headline
  bool stats = true;        // fio's stats=0: the job is left out of the reports
};

struct JobResult {
  std::string name;
  std::string description;
  int jobnum = 0;  // clone index within the job (numjobs)
  int groupid = 0;
  int error = 0;  // errno of the failure that ended the job, 0 if none
  std::string error_message;
  std::uint64_t merged_jobs = 1;  // how many job results were merged into this one
  std::uint16_t ioprio = 0;       // the job's own io priority (prio/prioclass; fio's ts->ioprio), 0 = none

  PerDirection<DirectionStats> dirs{};
  SyncStats sync;
  IodepthDistribution depth;
  CpuUsage cpu;
  TimeSeries series;

  std::uint64_t start_ns = 0;    // monotonic time the measured phase began (after ramp)
  std::uint64_t end_ns = 0;      // monotonic time it ended
  std::uint64_t runtime_ns = 0;  // measured time (end - start), excluding ramp_time and startdelay
  bool interrupted = false;
  bool stopped_by_max_latency = false;
  bool filled_up = false;              // fill_device: a write met ENOSPC/EDQUOT, which ended the job (not an error)
  std::uint64_t rmw_transactions = 0;  // rw=randrmw: completed read-then-write pairs
  std::uint64_t verified_ios = 0;      // reads whose data verification passed
  std::uint64_t verify_failures = 0;
  bool counts_zone_resets = false;  // zonemode=zbd: the reports carry zone_resets (fio 3.36+ only then)
  std::uint64_t zone_resets = 0;    // write pointers this job reset (a full zone written again, a trim)
  // block_error_percentiles: per trim block of the file, its trims and state (stats/block_lifetimes.h)
  std::vector<std::uint32_t> block_infos;
  // --profile=act: per slice of the test, the ios and those over each of ACT's latency limits (act_slices.h)
  std::vector<std::array<std::uint64_t, 4>> act_slices;
  nlohmann::json steadystate = nullptr;  // fio's "steadystate" block when ss= was given
  // fio's latency_target: latency_depth (the depth reached), latency_target (ns), latency_percentile and
  // latency_window (us), as fio's JSON has them; null when the job has no latency_target.
  nlohmann::json latency_target = nullptr;

  JobReportSettings settings;
  std::map<std::string, std::string> options;  // the options given, as fio echoes in "job options"

  std::uint64_t total_ios() const noexcept;
  // Adds another job's (or host's) result: counts and histograms add, runtime is the maximum
  // (group_reporting sums what ran side by side; rates are then total / wall time, never sums of rates).
  void merge(const JobResult& other);

  nlohmann::json to_json() const;  // full serialization (for MPI and the results store)
  static JobResult from_json(const nlohmann::json& j);
};

struct GroupResult {
  int groupid = 0;
  bool group_reporting = false;
  std::vector<JobResult> jobs;  // per job clone, in start order
  JobResult aggregate() const;  // all jobs merged (name of the first job), for group_reporting
};

// Block device counters over the run, from /sys/block/<dev>/stat (fio's disk_util).
struct DiskUtilization {
  std::string name;
  std::uint64_t read_ios = 0, write_ios = 0;
  std::uint64_t read_merges = 0, write_merges = 0;
  std::uint64_t read_sectors = 0, write_sectors = 0;
  std::uint64_t read_ticks_ms = 0, write_ticks_ms = 0;
  std::uint64_t in_queue_ms = 0;
  std::uint64_t io_ticks_ms = 0;
  double util_percent = 0;  // io_ticks / wall time of the run
};

struct RunResult {
  std::string version;
  std::string command;  // the sluice command that ran it ("capacity", "quick", ...): "sluice.command"; empty: run
  std::uint64_t timestamp_ms = 0;  // wall clock at the start
  std::string clock_source;
  std::vector<GroupResult> groups;
  std::vector<DiskUtilization> disks;
  std::vector<Problem> warnings;   // in the report: at the top of the normal output, "sluice.warnings" in JSON
  std::vector<std::string> notes;  // what the run did besides measuring ("laid out FILE (1 GiB)"): "sluice.notes"
  bool interrupted = false;
  nlohmann::json environment = nlohmann::json::object();  // sluice.environment
  nlohmann::json extra = nlohmann::json::object();        // further sluice-only sections (capacity, ...)
};

}  // namespace sluice
