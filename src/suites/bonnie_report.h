#pragma once
// bonnie++ 2.00a's reports of a run: the text table (its layout, k/m/g suffixes, "+++++" for a phase under
// 0.5 s, the latency rows), the CSV line in its 1.98 format (50 fields, with 2.00a's quirks so that
// bon_csv2html and bon_csv2txt read it), the -x header, and sluice's JSON of every phase.
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "suites/bonnie_options.h"
#include "suites/bonnie_run.h"

namespace sluice {

inline constexpr double kBonnieMinTime = 0.5;  // seconds: a shorter phase prints +++++ (too fast to time)
inline constexpr const char* kBonnieVersion = "2.00a";
inline constexpr const char* kBonnieCsvVersion = "1.98";

// One rate cell and its %CP cell as bonnie++ prints them: text " 1011k  72", " +++++ +++", blanks when the
// phase did not run; CSV ",1011,72", ",+++++,+++", ",,". `units` is the phase's amount: KiB for the IO
// tests, seeks, or files for the file tests.
std::string bonnie_rate_cells(BonnieTest test, const BonniePhase& phase, double units, bool text);

// A latency cell: "19756us", "160ms", "101s" or "" (text: right-aligned in 9 columns after a space).
std::string bonnie_latency(double seconds);

// The text report (IO table, then file table; either is left out when its tests did not run).
std::string render_bonnie_text(const BonnieOptions& options, const BonnieResult& result);

// The CSV line, newline-terminated.
std::string render_bonnie_csv(const BonnieOptions& options, const BonnieResult& result);

// The header line -x prints (2.00a's: the 48 names of format 1.97, without seeks and seek_proc_count).
std::string bonnie_csv_header();

// The run as JSON for "sluice.bonnie": options, seed, and per phase the bytes, ops, seconds, rate, CPU %,
// max latency and whether bonnie++ would print +++++.
nlohmann::json bonnie_json(const BonnieOptions& options, const BonnieResult& result);

}  // namespace sluice
