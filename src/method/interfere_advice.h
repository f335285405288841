#pragma once
// What `sluice interfere` concludes: the mechanism, in words, from what the run observed (the flood verified or
// not and for how long, the writeback queue, the filesystem's journal, WBT, the scheduler), and which knob to
// set. A trial's effect counts only when it was repeated: a knob is recommended when it helped in every run of
// its trial and there were at least two (one per thread count); a single run that helped is reported as a
// one-off. Pure functions of numbers, so tests feed fabricated runs.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "method/interfere_auto.h"

namespace sluice {

// One run of a trial beside its baseline (the loaded phase at the same thread count).
struct TrialRun {
  std::vector<KnobSetting> settings;
  std::uint32_t threads = 0;
  double base_iops = 0, trial_iops = 0;
  std::uint64_t base_fsync_p99_ns = 0, trial_fsync_p99_ns = 0;
  double base_bg_bps = 0, trial_bg_bps = 0;
};

enum class TrialEffect { kHelped, kHurt, kNoChange };

// Helped: at least 1.25x the baseline's IOPS (or writes completed where the baseline had none) with an fsync
// p99 no more than 10% worse. Hurt: at most 0.8x, or no write completed where the baseline had some.
TrialEffect judge_run(const TrialRun& run);

// A trial's runs together.
struct TrialSummary {
  std::vector<KnobSetting> settings;
  int runs = 0, helped = 0, hurt = 0;
  double iops_ratio = 0;                     // geometric mean over runs where both completed writes (0 when none)
  double base_bg_bps = 0, trial_bg_bps = 0;  // means over the runs
  bool recommended() const { return runs >= 2 && helped == runs; }
  std::string verdict;  // "helped in 2 of 2 runs (1.9x IOPS)", "a one-off: helped in its only run", ...
};

// What was observed, for the mechanism.
struct Observed {
  bool flooded = false;         // a loaded phase's flood was verified
  double seconds_at_limit = 0;  // longest time at the throttle point in a loaded phase
  double phase_seconds = 0;
  double slowdown = 0;   // largest idle / loaded IOPS; 0 = unknown, infinity-like when starved
  bool starved = false;  // a loaded phase completed no write
  std::uint64_t peak_writeback_bytes = 0;
  double peak_device_queue = 0;  // highest per-second average device queue in a loaded phase
  double writer_bps = 0;         // the background writers' rate in the loaded phases (highest)
  double device_bps = 0;         // the device's write rate in the loaded phases (highest, over the seconds it wrote)
  std::string filesystem;        // "ext4", ... (empty: unknown)
  std::string mount_options;
  QueueState queue;
  DirtyLimits limits;
};

struct Advice {
  std::string mechanism;       // several lines
  std::string recommendation;  // several lines
  bool recommended = false;
  std::vector<KnobSetting> best;         // the recommended trial's settings (when recommended)
  std::vector<std::string> next_to_try;  // --try values not tried yet, most promising first
  std::vector<TrialSummary> trials;
};

// Groups runs by their settings (in order of first appearance) and judges each trial.
std::vector<TrialSummary> summarize_trials(const std::vector<TrialRun>& runs);

// The mechanism and the recommendation. `tried` holds every trial that ran or was planned (trial_text).
Advice advise(const Observed& observed, const std::vector<TrialRun>& runs, const std::vector<std::string>& tried);

nlohmann::json advice_json(const Advice& advice);

}  // namespace sluice
