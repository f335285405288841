#pragma once
// The selftest's interfere rows (full run): `sluice interfere` on raid-wb + ext4, the notes' experiment (16 KiB
// fsync'd random writes idle and beside a bulk buffered copy, 1 and 10 threads, the notes' knob trial), and fio
// beside with the same flood (its size and block as sluice's) and the same knob, as an independent measurement.
// What the model guarantees is starvation: a write-back cache destaging a flood makes every fsync wait behind
// it (docs/lab.md); what a knob does on this kernel is not a model's truth, so sluice's trial is held to fio's.
// Pure: the runner (selftest_runner.cpp) runs the commands and sets the knobs.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "selftest/selftest_plan.h"

namespace sluice {

struct InterfereSetup {
  std::vector<std::uint32_t> threads = {1, 10};
  int phase_seconds = 10;  // each idle, loaded and trial phase, sluice's and fio's
  // Every phase, sluice's (interfere --set) and fio's, runs with the dirty limits of a smaller machine, so that a
  // 2 GiB lab holds a flood that reaches them (verified within 2 s): this machine's own limit (4.7 GiB of 24)
  // needs a larger flood than a lab can hold, and minutes of writeback between phases. Measured with the
  // default limits, the flood never reached them and 1 thread slowed 1.5x to 5.5x (fio 1.5x to 2.7x).
  std::vector<std::pair<std::string, std::string>> base = {{"vm.dirty_bytes", "256M"},
                                                           {"vm.dirty_background_bytes", "64M"}};
  // The trial: a quarter of the base limits, in --try=auto's set. Not the notes' 15 MB: with the lab's backing file
  // on a disk filesystem a 15 MB limit traps the lab itself (its daemon waits in balance_dirty_pages for pages
  // only it can write back: docs/lab.md; a selftest run hung 25 minutes so).
  std::vector<std::pair<std::string, std::string>> knob = {{"vm.dirty_bytes", "64M"},
                                                           {"vm.dirty_background_bytes", "16M"}};
  double min_slowdown = 5;  // the bar, which fio measured on this lab (7.5x to 90x)
};

// The rows: the slowdown for each thread count (at least min_slowdown), and the knob trial's direction for each
// (not opposite to fio's).
std::vector<SelftestCheck> interfere_checks(const InterfereSetup& setup);

// sluice interfere's arguments ("{dir}" the lab's filesystem): both thread counts, the knob trial.
std::vector<std::string> interfere_args(const InterfereSetup& setup);

// fio's arguments that write its foreground file in `dir` (before the first phase, so that the layout's writeback
// is not measured, and fully written, as sluice lays out its own).
std::vector<std::string> fio_layout_args(const std::string& dir);

// fio's arguments for one phase with `threads` foreground jobs in `dir`: the foreground alone, or (`bg_bytes`
// > 0) beside a buffered sequential writer of `bg_bytes` in `bg_bs` blocks, as sluice's background job; `tag`
// tells apart runs whose arguments would otherwise be the same (the knob's).
std::vector<std::string> fio_phase_args(const InterfereSetup& setup, std::uint32_t threads, const std::string& dir,
                                        std::uint64_t bg_bytes, std::uint64_t bg_bs, const std::string& tag);

// sluice interfere's background: its size and block size (sluice.interference.background).
std::optional<std::pair<std::uint64_t, std::uint64_t>> interfere_background(const nlohmann::json& doc,
                                                                            std::string& why);

// From sluice interfere's document: the idle IOPS over the loaded IOPS for `threads`; a starved loaded phase
// (no write completed) counts as its lower bound (idle IOPS x phase seconds).
std::optional<double> interfere_slowdown(const nlohmann::json& doc, std::uint32_t threads, std::string& why);

// From sluice interfere's document: the knob trial's foreground IOPS over the loaded baseline's, for `threads`.
std::optional<double> interfere_knob_ratio(const nlohmann::json& doc, std::uint32_t threads, std::string& why);

// From fio's document: the write IOPS of the jobs named "fg", summed.
std::optional<double> fio_foreground_iops(const nlohmann::json& doc, std::string& why);

// A ratio as a direction: 1 helps (>= 1.25), -1 hurts (<= 0.8), 0 no clear effect: the loaded phase's own spread
// between runs (13 to 26 IOPS on a lab, docs/lab.md) is that wide.
int knob_direction(double ratio);

}  // namespace sluice
