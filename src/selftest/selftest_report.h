#pragma once
// The selftest's verdicts (does a measurement agree with the truth?) and its report: one table, method by
// method, and the JSON section sluice.selftest. Pure.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "selftest/selftest_plan.h"

namespace sluice {

struct SelftestRow {
  std::string lab;  // the preset (or judged model) whose lab the check ran on
  SelftestCheck check;
  std::optional<double> measured;  // sluice's figure; nullopt when the measurement failed
  std::optional<double> fio;       // fio's figure beside, where fio has one and is installed
  std::string failure;             // why there is no measurement
  bool agrees = false;
};

struct SelftestLabInfo {
  std::string preset;
  std::string device;
  std::string note;  // the path measured and absorbed, or why not
};

struct SelftestSummary {
  std::vector<SelftestLabInfo> labs;
  std::vector<SelftestRow> rows;
  bool realtime = false;     // the measurements ran under SCHED_FIFO
  bool fio = false;          // fio was found and measured beside
  bool interrupted = false;  // a stop was requested; the rows after it were not measured
  double elapsed_s = 0;
  // The machine's CPU busy share over a second before the first lab and after the last (nullopt: unknown).
  // Above kBusyMachine the lab's kernel path, which runs at normal priority, waits for CPUs.
  std::optional<double> busy_before;
  std::optional<double> busy_after;
};

// The busy share above which the report warns that the machine, not sluice, may move the rows: one compiler on
// 2 CPUs (about 50%) moved ssd's depth-1 latency by +17% to +45%, fio's alike.
inline constexpr double kBusyMachine = 0.25;

// Whether `measured` agrees with the check's truth under its rule.
bool agrees_with_truth(const SelftestCheck& check, double measured);

// The value in the check's unit for the table: "819.5 us", "9761.7", "8".
std::string format_measure(Measure measure, double value);

// The tolerance in words: "±10%", "8 to 15", "exactly".
std::string format_tolerance(const SelftestCheck& check);

// True when every row agrees (and none failed).
bool all_agree(const SelftestSummary& summary);

// The table: one line a row (method, truth, sluice, fio, tolerance, verdict), each lab's header, the reasons for
// the tolerances, and the conclusion.
std::string render_selftest_text(const SelftestSummary& summary);

// {"rows": [{lab, method, group, truth, measured, fio, unit, tolerance, rule, why, approximate, agrees,
// failure}], "agrees": bool, "labs": [...], "realtime", "fio", "interrupted", "elapsed_s"}.
nlohmann::json selftest_json(const SelftestSummary& summary);

}  // namespace sluice
