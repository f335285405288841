#pragma once
// `sluice history trend METRIC`: a metric over comparable results (same command and job text), with the
// change points found in it (history changes' method and options, cli/history_changes.h) and the mean of
// each segment between them: as a table, as JSON (sluice.history.trend) or as an HTML page with the chart.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/history_changes.h"
#include "history/history_text.h"

namespace sluice {

struct TrendReport {
  std::string metric;
  std::vector<TrendPoint> points;  // every comparable result, oldest first (count 0: the metric is not in it)
  ChangesReport changes;           // over the points that have the metric (positions count only those)
};

// The trend of `metric` of job `job` ("" = the first) over `results` (oldest first, at least one), with
// its change points found with `detection`.
TrendReport build_trend(const std::vector<StoredResult>& results, const std::string& metric, const std::string& job,
                        const ChangePointOptions& detection);

// The table with a SEGMENT column (the mean of the row's segment) and the change marked on the first result
// after each shift, then each change with what changed there.
std::string render_trend_report_text(const TrendReport& trend);
// {"sluice": {"history": {"trend": {"metric", "job", "method", "points", "change_points", "segments"}}}}.
nlohmann::json trend_report_json(const TrendReport& trend);
// One page: the chart (the series, segment means, change points with what changed as their tooltips) and
// the tables.
std::string render_trend_html(const TrendReport& trend);

}  // namespace sluice
