#pragma once
// `sluice history changes`: the change points (history/change_points.h) of metrics over a series of saved
// results, each with the result where the series shifted and what differed between it and the result before
// (compare/environment_diff.h: the environment, and the job options when --force let them differ).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "compare/environment_diff.h"
#include "history/change_points.h"
#include "history/stored_result.h"
#include "html/series_chart.h"

namespace sluice {

struct ChangesRequest {
  std::vector<std::string> metrics;  // metric paths; empty: the headline metrics of the latest result
  std::string job;                   // the job whose metrics are followed ("" = the first, or each headline's)
  bool force = false;                // follow results whose job options differ as one series
  ChangePointOptions detection;
};

struct FoundChange {
  std::string metric;     // the metric path
  std::string job;        // "" = the first job
  std::size_t index = 0;  // 1-based position in the metric's series (results that have the metric)
  std::size_t series_length = 0;
  ChangePoint point;
  std::string run_id, started_at, label;  // the first result after the shift
  std::string previous_id;                // the result before it
  std::vector<Difference> environment;    // between those two
  std::vector<Difference> job_options;    // between those two (only with force)
};

struct ChangesReport {
  ChangesRequest request;
  std::size_t results = 0;
  std::string first_started_at, last_started_at;
  std::vector<std::string> metrics;                    // as followed, "JOB: PATH" when a job was named
  std::vector<std::size_t> lengths;                    // each metric's series length
  std::vector<std::vector<html::SeriesPoint>> series;  // each metric's series: the results that have it
  std::vector<FoundChange> changes;                    // by metric, then position
};

// The change points of each requested metric over `results` (oldest first, one command). Throws UserError when
// the results mix commands, or when adjacent results ran different job options and request.force is off
// (naming both results and the options), or when there are no results.
ChangesReport find_history_changes(const std::vector<StoredResult>& results, const ChangesRequest& request);

// One block per metric: its changes with the shift in % and its interval, the p-value and the differences.
std::string render_changes_text(const ChangesReport& report);
// {"sluice": {"history": {"method": {...}, "results": N, "metrics": [...], "changes": [...]}}}.
nlohmann::json changes_json(const ChangesReport& report);
// One page with a chart per metric: the series, its segment means and its change points with what changed.
std::string render_changes_html(const ChangesReport& report);

// The pieces trend shares (cli/history_trend.h): the changes of metric `metric_index` (report.metrics order),
// the first line about a change and its differences, one change and the method as JSON, the segments
// between the changes, and the chart input of a metric.
std::vector<const FoundChange*> changes_of(const ChangesReport& report, std::size_t metric_index);
std::string change_summary(const FoundChange& change, const ChangePointOptions& options);
std::vector<std::string> change_differences(const FoundChange& change);
nlohmann::json change_json(const FoundChange& change, const ChangePointOptions& options);
nlohmann::json method_json(const ChangePointOptions& options);
std::vector<html::SeriesSegment> segments_of(const std::vector<html::SeriesPoint>& series,
                                             const std::vector<const FoundChange*>& changes);
html::SeriesChartInput series_chart_input(const ChangesReport& report, std::size_t metric_index, std::string id);
// "E-Divisive means, 199 permutations, alpha 0.01, segments of at least 3".
std::string method_text(const ChangePointOptions& options);

}  // namespace sluice
