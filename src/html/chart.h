#pragma once
// One chart as data (series, axes, markers) and its two renderings: inline SVG for the report and CSV for
// people who plot elsewhere. Every chart of the report is a ChartSpec, so `--format=svg|csv --chart=ID`
// exports exactly what the HTML shows.
#include <string>
#include <vector>

#include "html/downsample.h"
#include "html/scale.h"

namespace sluice::html {

enum class Axis { kLeft, kRight };

struct ChartSeries {
  std::string name;
  std::vector<ChartPoint> points;  // ordered by x
  Axis axis = Axis::kLeft;
  bool dots = false;    // also draw a dot at each point (few points: capacity curve)
  bool dashed = false;  // a second quantity of the same series (p99 next to IOPS)
  int color = -1;       // palette index; -1 = the series' position
};

// A vertical line at x (phase boundary, knob trial, change point) with a label; `detail`, when given, is
// added to the tooltip (what changed there), as it is too long to print on the chart.
struct ChartMarker {
  double x = 0;
  std::string label;
  std::string detail;
};

// A horizontal line at y on one axis (an SLO) with a label.
struct ChartLevel {
  double y = 0;
  Axis axis = Axis::kLeft;
  std::string label;
};

// A horizontal line from x0 to x1 at y (a segment's mean between change points) with a tooltip.
struct ChartSpan {
  double x0 = 0;
  double x1 = 0;
  double y = 0;
  Axis axis = Axis::kLeft;
  std::string label;
};

// A point ringed and labelled (knee, thrashing).
struct ChartHighlight {
  ChartPoint at;
  Axis axis = Axis::kLeft;
  std::string label;
};

struct AxisSpec {
  std::string label;  // with its unit: "latency (ms)"
  bool log = false;
  std::vector<Tick> ticks;  // empty = chosen from the data
  double lo = 0;            // when lo < hi: the fixed domain; else from the data (linear axes start at 0)
  double hi = 0;
};

struct ChartSpec {
  std::string id;  // stable name for --chart and the element id: "spectrum", "timeline-job1"
  std::string title;
  AxisSpec x;
  AxisSpec y;
  AxisSpec y2;  // used when a series is on Axis::kRight
  std::vector<ChartSeries> series;
  std::vector<ChartMarker> markers;
  std::vector<ChartLevel> levels;
  std::vector<ChartSpan> spans;
  std::vector<ChartHighlight> highlights;
  std::string note;  // one line under the chart: what is drawn and how it was thinned
};

// Points per series at most after downsample_min_max (2 per bucket); keeps long runs small.
inline constexpr std::size_t kMaxBuckets = 800;

// The chart as one <svg> element with a <title>, axes, ticks, legend and the series as polylines.
// Deterministic: a function of `chart` only.
std::string render_svg(const ChartSpec& chart);

// The chart's data as CSV: "series,x,y" header with the axis labels in a comment line, then one row per
// point (series in order), then markers/levels/spans (a #span row at x0 and a #span-end row at x1)/highlights as
// rows whose series names start with '#'.
std::string render_csv(const ChartSpec& chart);

// The Okabe-Ito colour-blind-safe palette (prints on white); index taken modulo its size.
const char* palette_color(int index);

}  // namespace sluice::html
