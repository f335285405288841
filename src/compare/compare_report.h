#pragma once
// The reports of a compare: the text table (environment diff first, then one row per metric) and the JSON
// document (everything under "sluice.compare"). Pure functions of a CompareReport.
#include <nlohmann/json.hpp>
#include <string>

#include "compare/compare.h"

namespace sluice {

// The text report: per comparison, what differs, the table (old and new are medians of the repetitions),
// the reasons of the n/a rows, and the --fail-on rules that fired.
std::string render_compare_text(const CompareReport& report);

// {"sluice": {"compare": {...}}} with every repetition's value, p, U, change and verdict per row.
nlohmann::json compare_json(const CompareReport& report);

// A value with its unit as the table shows it: "1234 IOPS", "12.3 MiB/s", "85.2 us", "1.52x".
std::string format_metric_value(MetricUnit unit, double value);

}  // namespace sluice
