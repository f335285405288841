#pragma once
// sluice interfere: does a bulk buffered writer starve fsync'd small writes, and which kernel setting helps?
// Per foreground thread count: an idle phase (foreground alone) and a loaded phase (foreground beside
// role=background writers of zeros: a flood sized above the dirty limit, one writer or several, see
// interfere_writers.h), then each --try trial reruns the loaded phase with kernel knobs changed through a
// KnobSession (root only; restored after each trial, on SIGINT/SIGTERM, and from the journal after a crash).
// Each loaded phase's flood is verified (interfere_flood.h) and the report concludes with the mechanism and a
// recommendation (interfere_advice.h). Everything compiles down to JobSpecs run by run_jobs.
#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "method/interfere_advice.h"
#include "method/interfere_auto.h"
#include "method/interfere_explain.h"
#include "method/interfere_flood.h"
#include "observe/knobs.h"
#include "observe/writeback_sampler.h"
#include "stats/result.h"

namespace sluice {

struct InterfereOptions {
  std::string filename;               // the foreground file (laid out; removed after if sluice made it)
  std::uint64_t size = 256ull << 20;  // foreground file size
  std::uint64_t fg_bs = 16 << 10;
  std::uint32_t fg_fsync = 1;  // fsync after every N writes
  std::vector<std::uint32_t> threads = {1, 10};
  std::uint64_t bg_bs = 1 << 20;  // like cp; 1k is the notes' dd
  std::uint64_t bg_size = 0;      // 0: from the dirty limit (see background_size); all writers together
  std::uint32_t bg_writers = 0;   // 0: auto (one, or more when one cannot reach the dirty limit)
  std::chrono::nanoseconds budget = std::chrono::seconds(120);
  std::vector<std::vector<KnobSetting>> tries;  // one entry per --try (comma-separated settings = one trial)
  std::vector<KnobSetting> base;                // --set: knobs every phase runs with (journalled, restored at the end)
  bool try_auto = false;                        // --try=auto: add auto_trials() (interfere_auto.h)
  bool status_line = false;
  std::string proc_root = "/proc";  // where meminfo and vm settings are read
  std::string sys_root = "/sys";
  KnobSessionOptions knobs;  // journal, knob roots, euid (tests point them elsewhere)
};

struct LatencySummary {
  double mean_ns = 0;
  std::uint64_t p95_ns = 0, p99_ns = 0, max_ns = 0;
};

struct TimelinePoint {
  double t_s = 0;
  double fg_iops = 0;
  std::uint64_t fg_lat_p99_ns = 0;
  WritebackSample wb;
};

struct PhaseResult {
  std::string name;  // "idle", "loaded", "trial"
  std::uint32_t threads = 0;
  double seconds = 0;
  double iops = 0;
  LatencySummary lat;        // write
  LatencySummary fsync_lat;  // the fsync after each write
  double bg_bw_bytes = 0;    // background writer, bytes/s (0 when idle)
  double device_write_bps = 0;
  std::uint64_t peak_dirty = 0, peak_writeback = 0;
  double peak_device_queue = 0;
  DirtyLimits limits;      // in force when the phase started (a trial's knobs included)
  bool has_flood = false;  // a background writer ran: `flood` holds its verdict
  FloodVerdict flood;
  std::vector<TimelinePoint> timeline;
  RunResult run;
};

struct TrialResult {
  std::vector<KnobSetting> settings;
  std::uint32_t threads = 0;
  bool ran = false;
  std::string skipped_reason;
  PhaseResult phase;
  std::vector<KnobChange> changes;  // what was changed and whether it was restored
  std::vector<std::string> restore_failures;
};

struct InterfereReport {
  InterfereOptions options;
  std::string bg_file;                // the first writer's file (bg_files.front())
  std::vector<std::string> bg_files;  // one per writer
  std::uint32_t bg_writers = 1;
  double probe_bps = 0;  // one writer's speed measured before the phases (auto writers), 0 = not
  BackgroundSizing sizing = BackgroundSizing::kFromLimit;
  std::uint64_t free_bytes = 0;  // free space of the filesystem when the background size was chosen
  std::string device;
  QueueState queue;  // the device's queue knobs when the run started
  std::string filesystem, mount_options;
  std::vector<PhaseResult> phases;  // idle, loaded per thread count, in order
  std::vector<TrialResult> trials;
  DirtyLimits limits;
  VmDirtySettings vm;
  Explanation explanation;
  Advice advice;
  bool knobs_restored = true;
  std::vector<KnobChange> base_changes;  // --set: what every phase ran with, and whether it was restored
  bool interrupted = false;
  nlohmann::json environment;
};

// What the background files would hold with room enough: 1.25 x the dirty limit, at least 64 MiB.
std::uint64_t background_wanted(const DirtyLimits& limits);

// The background files' total size: background_wanted(), at most the free space less the foreground file and a
// margin (max(1 GiB, 10% of free)), in whole MiB. Throws UserError when less than 16 MiB fit.
std::uint64_t background_size(const DirtyLimits& limits, std::uint64_t free_bytes, std::uint64_t fg_size);

// Which trials can run: unknown knobs, bad values, no root, or a missing queue knob file make a trial skip
// with a reason (the others run). Pure apart from checking that queue knob files exist.
std::vector<TrialResult> plan_trials(const InterfereOptions& options, const std::string& device);

// Runs the scenario. Throws UserError before any I/O for a bad filename or no room.
InterfereReport run_interfere(const InterfereOptions& options);

std::string render_interfere_text(const InterfereReport& report);
nlohmann::json interference_json(const InterfereReport& report);
// fio's JSON of all phases plus sluice.environment and sluice.interference; json_plus adds histogram bins.
std::string render_interfere_json_text(const InterfereReport& report, bool json_plus = false);

}  // namespace sluice
