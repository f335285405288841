#pragma once
// --save, --label, --db and --repeat as every measuring command takes them (cli/history_options.h declares
// them in the command tables, sluice run's included).
#include <cstdint>
#include <string>

namespace sluice {

struct HistoryChoice {
  bool save = false;         // --save; --label and --db imply it
  std::string label;         // --label=TEXT
  std::string db;            // --db=PATH; empty = default_history_path() (SLUICE_DB or ~/.local/share/...)
  std::uint32_t repeat = 1;  // --repeat=N: the measurement N times, each repetition kept
};

inline constexpr std::uint32_t kMaxRepeat = 1000;

}  // namespace sluice
