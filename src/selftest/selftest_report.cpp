#include "selftest/selftest_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "job/units.h"
#include "method/quick_class.h"
#include "selftest/selftest_measure.h"

namespace sluice {
namespace {

bool is_latency(Measure m) {
  return m == Measure::kReadLatencyMean || m == Measure::kWriteLatencyMean || m == Measure::kReadLatencyP99;
}

const char* unit_of(Measure m) {
  switch (m) {
    case Measure::kReadLatencyMean:
    case Measure::kWriteLatencyMean:
    case Measure::kReadLatencyP99:
      return "ns";
    case Measure::kQuickClass:
      return "class";
    case Measure::kSlowdown:
      return "times";
    case Measure::kKnobEffect:
      return "direction";
    case Measure::kReadIops:
    case Measure::kWriteIops:
    case Measure::kCapacityIops:
    case Measure::kFirstRoundIops:
    case Measure::kSteadyIops:
      return "iops";
    case Measure::kKneeConcurrency:
    case Measure::kCapacityConcurrency:
      return "concurrency";
    case Measure::kThrashing:
    case Measure::kLintSmallArea:
      return "yes/no";
    case Measure::kVerdict:
      return "verdict";
  }
  return "";
}

const char* rule_name(Tolerance rule) {
  switch (rule) {
    case Tolerance::kRelative:
      return "relative";
    case Tolerance::kKneeRange:
      return "knee_range";
    case Tolerance::kExact:
      return "exact";
    case Tolerance::kAtLeast:
      return "at_least";
    case Tolerance::kNotOpposite:
      return "not_opposite";
  }
  return "";
}

std::string verdict(const SelftestRow& row) {
  if (!row.measured) return "FAILED";
  return row.agrees ? "agrees" : "DISAGREES";
}

std::string deviation(const SelftestRow& row) {
  if (!row.measured || row.check.rule != Tolerance::kRelative || row.check.truth == 0) return "";
  return fmt::format(" ({:+.1f}%)", 100 * (*row.measured / row.check.truth - 1));
}

nlohmann::json optional_number(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); }

}  // namespace

bool agrees_with_truth(const SelftestCheck& check, double measured) {
  switch (check.rule) {
    case Tolerance::kRelative:
      return std::abs(measured - check.truth) <= check.tolerance * check.truth;
    case Tolerance::kKneeRange:
      return measured >= check.truth && measured < 2 * check.truth;
    case Tolerance::kExact:
      return measured == check.truth;
    case Tolerance::kAtLeast:
      return measured >= check.truth;
    case Tolerance::kNotOpposite:
      return measured * check.truth != -1;
  }
  return false;
}

std::string format_measure(Measure measure, double value) {
  if (is_latency(measure)) return format_duration_ns(value);
  if (measure == Measure::kThrashing) return value != 0 ? "reported" : "none";
  if (measure == Measure::kLintSmallArea) return value != 0 ? "flagged" : "not flagged";
  if (measure == Measure::kSlowdown) return fmt::format("{:.1f}x", value);
  if (measure == Measure::kKnobEffect) return value > 0 ? "helps" : value < 0 ? "hurts" : "no clear effect";
  if (measure == Measure::kVerdict) return verdict_word(value);
  if (measure == Measure::kQuickClass) {
    const auto i = static_cast<std::size_t>(value);
    return value >= 0 && i < kQuickReferenceClasses.size() ? std::string(kQuickReferenceClasses[i].name) : "none";
  }
  if (measure == Measure::kKneeConcurrency || measure == Measure::kCapacityConcurrency) {
    return fmt::format("{:.0f}", value);
  }
  return fmt::format("{:.1f}", value);
}

std::string format_tolerance(const SelftestCheck& check) {
  switch (check.rule) {
    case Tolerance::kRelative:
      return fmt::format("±{:.0f}%", 100 * check.tolerance);
    case Tolerance::kKneeRange:
      return fmt::format("{:.0f} to {:.0f}", check.truth, 2 * check.truth - 1);
    case Tolerance::kExact:
      return "exactly";
    case Tolerance::kAtLeast:
      return "at least";
    case Tolerance::kNotOpposite:
      return "not opposite";
  }
  return "";
}

bool all_agree(const SelftestSummary& summary) {
  return !summary.interrupted && !summary.rows.empty() &&
         std::all_of(summary.rows.begin(), summary.rows.end(), [](const SelftestRow& r) { return r.agrees; });
}

std::string render_selftest_text(const SelftestSummary& summary) {
  std::string out =
      "sluice selftest: sluice's methods on model devices whose truth is computed by queueing theory (docs/lab.md)\n";
  out += summary.realtime ? "the measurements and the lab daemons ran under SCHED_FIFO 1\n"
                          : "the measurements ran at normal priority (SCHED_FIFO refused): a busy machine moves them\n";
  if (!summary.fio) out += "fio not found: no fio figures beside\n";
  const double busy = std::max(summary.busy_before.value_or(0), summary.busy_after.value_or(0));
  if (busy > kBusyMachine) {
    out += fmt::format(
        "warning: the machine was busy ({:.0f}% of the CPUs before or after the selftest, other work than its "
        "own): the lab's kernel path runs at normal priority and waits for CPUs, so rows may disagree for that "
        "reason (fio's figures beside move alike); rerun on an idle machine\n",
        100 * busy);
  }
  std::map<std::string, int> reasons;  // why -> its number in the notes
  std::vector<std::string> reason_order;
  std::size_t width = 40;  // the method column: the longest method
  for (const SelftestRow& row : summary.rows) width = std::max(width, row.check.method.size());
  for (const SelftestLabInfo& lab : summary.labs) {
    const bool has_rows = std::any_of(summary.rows.begin(), summary.rows.end(),
                                      [&](const SelftestRow& r) { return r.lab == lab.preset; });
    if (!has_rows) continue;  // a comparison-only lab: its rows are under "compare" (the JSON lists the lab)
    if (lab.device.empty()) {
      out += fmt::format("\n{}: {}\n", lab.preset, lab.note);
    } else {
      out += fmt::format("\nlab {} on {}{}\n", lab.preset, lab.device, lab.note.empty() ? "" : ": " + lab.note);
    }
    out += fmt::format("  {:<{}} {:>10} {:>20} {:>10} {:>9}  {}\n", "method", width, "truth", "sluice", "fio",
                       "tolerance", "verdict");
    for (const SelftestRow& row : summary.rows) {
      if (row.lab != lab.preset) continue;
      const SelftestCheck& c = row.check;
      if (!reasons.count(c.why)) {
        reasons[c.why] = static_cast<int>(reason_order.size()) + 1;
        reason_order.push_back(c.why);
      }
      const std::string truth = (c.approximate ? "~" : "") + format_measure(c.measure, c.truth);
      const std::string measured = row.measured ? format_measure(c.measure, *row.measured) + deviation(row) : "-";
      const std::string fio = row.fio ? format_measure(c.measure, *row.fio) : "";
      out += fmt::format("  {:<{}} {:>10} {:>20} {:>10} {:>9}  {} [{}]\n", c.method, width, truth, measured, fio,
                         format_tolerance(c), verdict(row), reasons[c.why]);
      if (!row.measured) out += fmt::format("      {}\n", row.failure);
    }
  }
  out += "\ntolerances:\n";
  for (std::size_t i = 0; i < reason_order.size(); ++i) out += fmt::format("  [{}] {}\n", i + 1, reason_order[i]);
  out += "  ~ marks an approximate truth (queueing with varying service or several servers; docs/lab.md)\n";
  const auto disagree =
      std::count_if(summary.rows.begin(), summary.rows.end(), [](const SelftestRow& r) { return !r.agrees; });
  if (summary.interrupted) {
    out += fmt::format("\ninterrupted after {} row(s): no verdict\n", summary.rows.size());
  } else if (disagree == 0) {
    out += fmt::format("\nall {} rows agree with the truth ({:.0f} s)\n", summary.rows.size(), summary.elapsed_s);
  } else {
    out += fmt::format("\n{} of {} rows disagree with the truth ({:.0f} s)\n", disagree, summary.rows.size(),
                       summary.elapsed_s);
  }
  return out;
}

nlohmann::json selftest_json(const SelftestSummary& summary) {
  nlohmann::json rows = nlohmann::json::array();
  for (const SelftestRow& row : summary.rows) {
    const SelftestCheck& c = row.check;
    nlohmann::json j = {
        {"lab", row.lab},
        {"method", c.method},
        {"group", c.group},
        {"truth", c.truth},
        {"measured", optional_number(row.measured)},
        {"truth_text", format_measure(c.measure, c.truth)},
        {"measured_text", row.measured ? nlohmann::json(format_measure(c.measure, *row.measured)) : nlohmann::json()},
        {"fio", optional_number(row.fio)},
        {"unit", unit_of(c.measure)},
        {"rule", rule_name(c.rule)},
        {"tolerance", c.rule == Tolerance::kRelative ? nlohmann::json(c.tolerance) : nlohmann::json()},
        {"why", c.why},
        {"approximate", c.approximate},
        {"agrees", row.agrees}};
    if (!row.failure.empty()) j["failure"] = row.failure;
    rows.push_back(j);
  }
  nlohmann::json labs = nlohmann::json::array();
  for (const SelftestLabInfo& lab : summary.labs) {
    labs.push_back({{"model", lab.preset}, {"device", lab.device}, {"note", lab.note}});
  }
  return {{"rows", rows},
          {"agrees", all_agree(summary)},
          {"labs", labs},
          {"realtime", summary.realtime},
          {"fio", summary.fio},
          {"interrupted", summary.interrupted},
          {"elapsed_s", summary.elapsed_s},
          {"cpu_busy_before", optional_number(summary.busy_before)},
          {"cpu_busy_after", optional_number(summary.busy_after)}};
}

}  // namespace sluice
