#pragma once
// `sluice interfere --try=auto`: the documented set of knob trials, chosen from what the device offers, and the
// queue state the explanation names. The set (docs/interference.md, "--try=auto"):
//   1. vm.dirty_bytes / vm.dirty_background_bytes in steps: 256M/64M, 64M/16M, 15M/5M (the notes' fix); only
//      steps below the dirty limit in force;
//   2. queue.wbt_lat_usec toggled: 0 (off) when writeback throttling is on, 2000 (2 ms) when it is off;
//   3. queue.scheduler: each of bfq, mq-deadline and none that the device offers, except the current one;
//   4. queue.nr_requests=32 (a shorter device queue), when the current value is above it.
// Queue trials need the file to be on a block device; without one only the vm steps are tried.
#include <string>
#include <utility>
#include <vector>

#include "method/interfere_explain.h"
#include "observe/knobs.h"

namespace sluice {

using KnobSetting = std::pair<std::string, std::string>;  // knob, value as the user wrote it

// The device's queue when the run started; empty strings where a file is missing (or no device).
struct QueueState {
  std::string scheduler;                // active
  std::vector<std::string> schedulers;  // offered
  std::string wbt_lat_usec;             // "0" = writeback throttling off
  std::string nr_requests;
};

// Reads the queue knobs of `device` under `roots`; never throws (what cannot be read stays empty).
QueueState read_queue_state(const std::string& device, const KnobRoots& roots);

// The trials of --try=auto for these limits and this queue (see the top of the file), in that order.
std::vector<std::vector<KnobSetting>> auto_trials(const DirtyLimits& limits, const QueueState& queue);

// "vm.dirty_bytes=15M,vm.dirty_background_bytes=5M": a trial as --try takes it.
std::string trial_text(const std::vector<KnobSetting>& settings);

}  // namespace sluice
