#pragma once
// What `sluice selftest` measures and what each measurement must give: for a model (lab/model.h), the checks
// of sluice's methods on the model's raw lab device, each with its truth (lab/truth.h), its tolerance and why.
// Pure: no device, no process (selftest_runner.h runs the checks).
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "lab/model.h"

namespace sluice {

// What a check reads from the JSON document its command wrote (selftest_measure.h).
enum class Measure {
  kReadLatencyMean,      // jobs[0].read.lat_ns.mean
  kReadLatencyP99,       // jobs[0].read.lat_ns.percentile["99.000000"] (the job asks lat_percentiles=1)
  kReadIops,             // jobs[0].read.iops
  kWriteLatencyMean,     // jobs[0].write.lat_ns.mean
  kWriteIops,            // jobs[0].write.iops
  kCapacityIops,         // sluice.capacity.iops
  kKneeConcurrency,      // sluice.capacity.knee.concurrency
  kCapacityConcurrency,  // sluice.capacity.concurrency: where the answer was measured
  kThrashing,            // sluice.capacity.thrashing: 1 when reported, 0 when null
  kVerdict,              // sluice compare's verdict: 1 better, 0 within noise, -1 worse, 2 n/a
  kFirstRoundIops,       // sluice.precondition.rounds[0].iops
  kSteadyIops,           // the mean IOPS of sluice.precondition's last 5 rounds, once steady
  kLintSmallArea,        // 1 when sluice.warnings holds the lint's small-test-area warning, else 0
  kSlowdown,             // sluice interfere: the idle phase's IOPS over the loaded one's (SelftestCheck::threads)
  kKnobEffect,           // sluice interfere: the knob trial's direction against the loaded baseline: 1 helps,
                         // 0 no clear effect, -1 hurts (selftest_interfere.h)
  kQuickClass,           // sluice.quick.behaves_like.class: its position in kQuickReferenceClasses (0 ramdisk ...)
};

// How the measured value is held to the truth.
enum class Tolerance {
  kRelative,     // |measured - truth| <= tolerance * truth
  kKneeRange,    // truth <= measured < 2 * truth (the search doubles the concurrency: 1, 2, 4, ...)
  kExact,        // measured == truth (a yes/no as 1/0, a verdict)
  kAtLeast,      // measured >= truth
  kNotOpposite,  // directions (1, 0, -1): measured * truth != -1 (a clear effect against the opposite one)
};

struct SelftestCheck {
  std::string method;                    // what is judged, in words: "run psync, 4 KiB randread, depth 1: mean latency"
  std::string group;                     // --methods names it: run, capacity, open-loop, fsync
  std::vector<std::string> sluice_args;  // sluice's arguments after the binary; "{device}" is the lab's device,
                                         // "{dir}" the mounted filesystem of a lab with one
  std::vector<std::string> fio_args;     // fio's arguments for the same measurement; empty: fio has none
  Measure measure = Measure::kReadIops;
  double truth = 0;  // ns for latencies, ios/s, a concurrency, or 1/0
  Tolerance rule = Tolerance::kRelative;
  double tolerance = 0.10;    // for kRelative
  std::string why;            // why this tolerance (docs/lab.md has the long form)
  bool approximate = false;   // the truth is an approximation (queueing with varying service; docs/lab.md)
  std::uint32_t threads = 0;  // interfere's rows: the foreground thread count the row reads
};

struct SelftestLab {
  std::string preset;       // the lab brought up (a preset's name, or kQueueModelName); with --lab, the judged model
  std::string model_text;   // the model's text when it is not a preset (written to a file for lab up)
  std::string fs = "none";  // lab up's --fs: none (the raw device), or ext4 for the checks that need a filesystem
  ModelSpec model;          // the model the truths are computed from (size set to the device's)
  std::vector<SelftestCheck> checks;
  // The backing file in memory (a tmpfs) when there is room: the lab's own writes then never join the page
  // cache's dirty pages that the checks flood (interfere), nor wait in their writeback.
  bool backing_in_memory = false;
};

struct SelftestPlanOptions {
  bool quick = false;                // the CI set: one lab (ssd), at most 3 minutes
  std::vector<std::string> methods;  // only these groups; empty: all
  std::uint64_t device_size = std::uint64_t{1} << 30;
};

// Two labs compared by `sluice compare` over repetitions of one job: the verdict the two models' truths give.
struct SelftestComparison {
  SelftestCheck check;                // the row: method, group "compare", Measure::kVerdict, the expected verdict
  std::string baseline;               // the preset of compare's A
  std::string other;                  // the preset of compare's B
  std::vector<std::string> run_args;  // one repetition (sluice's arguments, "{device}" the lab's device)
  int repetitions = 5;
  std::string job;  // the job's name, direction and metric of compare's row
  std::string direction;
  std::string metric;
};

// The comparisons of the full run (none with --quick): raid-wb against raid-wt on fsync'd writes (better) and on
// reads (within noise: the same disks), iscsi-1g against sata7k on reads (better).
std::vector<SelftestComparison> plan_comparisons(const SelftestPlanOptions& options);

// The open loop's own model: 8 servers of a fixed 4 ms. The lab serves it faithfully under random arrivals
// (the path, ~0.1 ms, is 2.5% of a service; 2 000 requests a second at most), where on ssd (0.82 ms) the path's
// own queueing at moderate load added 30-70% (docs/lab.md, "sluice selftest").
inline constexpr const char* kQueueModelName = "queue";
const std::string& queue_model_text();

// The labs and checks of a selftest: --quick the queueing model, ssd-cliff's preconditioning and ssd, else the
// queueing model, ssd-cliff, ssd, sas15k, sata7k, raid-wt, raid-wb and
// iscsi-1g (its checks and the comparisons' repetitions).
std::vector<SelftestLab> plan_selftest(const SelftestPlanOptions& options);

// The checks for one model (its size already the device's): every group unless `options.methods` names some.
std::vector<SelftestCheck> checks_for_model(const ModelSpec& model, const SelftestPlanOptions& options);

// Whether the lab can serve a model's fsync'd writes faithfully with its path measured at `path`: a reply
// cannot leave before its request arrives, so a flush the model answers in less than the path costs the path
// (ssd, no flush time: fio measured 0.64-0.73 of the truth; raid-wb's 0.1 ms flush behind a 216 us path: fio
// 0.86, sluice 0.71). True when the flush's own time covers the path or the cycle is 20 paths or more.
bool fsync_judgeable(const ModelSpec& model, double fsync_iops, std::chrono::nanoseconds path);

// The class `sluice quick` must name for a model (its position in kQuickReferenceClasses): the nearest to the
// truth's depth-1 4 KiB random read latency plus `path` (a reply cannot beat it) and its most 4 KiB random read
// IOPS within quick's 10 ms limit.
int quick_class_truth(const ModelSpec& model, std::chrono::nanoseconds path);

// The model as a test confined to `fraction` (0-1] of it sees: offsets uniform over a contiguous part, so each
// seek spans that fraction of the distances: seek_full becomes seek_track + (seek_full - seek_track) x
// sqrt(fraction) (the model's seek grows with the square root of the distance), exactly. A file on a filesystem
// is such a part; quick's file on a sata7k lab, 40% of it, reads 8.2 ms a request where the whole device reads
// 9.9, nearer the sas15k class (short-stroking).
ModelSpec confined_model(ModelSpec model, double fraction);

// The part of its lab quick's test file takes (given as --size, so that the truth knows the seeks' span).
inline constexpr double kQuickFileFraction = 0.4;

// The size of the lab a selftest brings up for `model`: `device_size`, except 256 MiB for a model with a cliff
// (reached within seconds of writing) and 12 x the cache for a model with a device cache (the lint's rows need an
// area over 10 x it).
std::uint64_t selftest_lab_size(const ModelSpec& model, std::uint64_t device_size);

// The groups --methods accepts, in the order the checks run.
const std::vector<std::string>& selftest_groups();

}  // namespace sluice
