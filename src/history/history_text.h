#pragma once
// Text for the history: the spread of headline metrics over repetitions, and the tables of
// `sluice history list|show` and trend's points (cli/history_trend.h draws them). Pure functions of stored
// documents.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "history/metric_path.h"
#include "history/spread.h"
#include "history/stored_result.h"

namespace sluice {

struct MetricSpread {
  HeadlineMetric metric;
  Spread spread;  // in the metric's display unit (value * scale)
};

// The spread of each headline metric of the last document over all `documents`.
std::vector<MetricSpread> spreads_of(const std::vector<nlohmann::json>& documents);

// "Spread over N repetitions ..." and one line per metric: min / median / max and CV.
std::string render_spread_text(const std::vector<MetricSpread>& spreads, std::size_t repetitions);

// A number for tables: no decimals from 100 up, else 4 significant digits.
std::string display_number(double value);

// `history list`: one line per result (id, start, command, label, repetitions, host, first headline median).
std::string render_history_list(const std::vector<StoredResult>& results);

// `history show`: every field, the command line and job text, the environment's host and kernel, each
// repetition's headline metrics and the spread.
std::string render_history_show(const StoredResult& result);

// One point of a trend: a result's values of the metric over its repetitions.
struct TrendPoint {
  std::string id, started_at, label;
  Spread spread;  // of the metric over the repetitions that have it (count 0: none had it)
};

// The points of `metric` over `results` (oldest first) for the job `job` ("" = the first).
std::vector<TrendPoint> trend_points(const std::vector<StoredResult>& results, const std::string& metric,
                                     const std::string& job);

}  // namespace sluice
