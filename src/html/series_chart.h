#pragma once
// A metric over results, with its change points and the means of the segments between them: what
// `sluice history trend|changes --output-format=html` draw. The history side fills these plain structs
// (cli/history_trend.h), so html/ knows nothing of the store. Pure and deterministic.
#include <string>
#include <vector>

#include "html/chart.h"

namespace sluice::html {

struct SeriesPoint {
  std::string id, started_at, label;  // the result
  double value = 0;                   // the metric (median over the result's repetitions)
};

// A segment of the series between change points (positions 1-based, inclusive) and its mean.
struct SeriesSegment {
  std::size_t first = 0, last = 0;
  double mean = 0;
};

// A change point: the position of the first result after the shift (1-based), a short label for the chart
// ("+18.0%"), one line about it (where, from what to what, interval, p) and what changed there.
struct SeriesChange {
  std::size_t index = 0;
  std::string label;
  std::string summary;
  std::vector<std::string> differences;
};

struct SeriesChartInput {
  std::string id;       // the chart's id: "trend", "changes-1"
  std::string title;    // "read.iops"
  std::string y_label;  // with the unit as stored: "read.clat_ns.p99 (ns)"
  std::vector<SeriesPoint> points;
  std::vector<SeriesSegment> segments;
  std::vector<SeriesChange> changes;
};

// The chart: the points over their position in the series, each segment's mean as a horizontal line, each
// change point as a marker whose tooltip holds the summary and the differences.
ChartSpec series_chart(const SeriesChartInput& input);

// The page: `heading`, the `method` line, then per input its chart, its change points with what changed, and
// its results (position, id, start, label, value, segment mean).
std::string render_series_page(const std::string& heading, const std::string& method,
                               const std::vector<SeriesChartInput>& inputs);

}  // namespace sluice::html
