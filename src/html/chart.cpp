#include "html/chart.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "html/svg_text.h"

namespace sluice::html {
namespace {

constexpr double kWidth = 760;
constexpr double kPlotHeight = 250;
constexpr double kTop = 40;
constexpr double kLeft = 76;
constexpr double kLegendRow = 18;
constexpr int kLegendPerRow = 3;

struct Range {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -std::numeric_limits<double>::infinity();
  void add(double v) {
    if (!std::isfinite(v)) return;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  bool empty() const { return !(hi >= lo); }
};

bool uses_right(const ChartSpec& c) {
  return std::any_of(c.series.begin(), c.series.end(), [](const ChartSeries& s) { return s.axis == Axis::kRight; });
}

// The domain of an axis: the spec's fixed one, else the data's (from 0 for linear axes; positive for log).
Range domain(const AxisSpec& axis, const Range& data, bool is_x) {
  if (axis.lo < axis.hi) return Range{axis.lo, axis.hi};
  Range r = data;
  if (r.empty()) r = Range{axis.log ? 1.0 : 0.0, axis.log ? 10.0 : 1.0};
  if (axis.log) {
    if (r.lo <= 0) r.lo = r.hi > 0 ? r.hi / 1000 : 1;
    if (!is_x) {
      r.lo = std::pow(10.0, std::floor(std::log10(r.lo)));
      r.hi = std::pow(10.0, std::ceil(std::log10(r.hi)));
    }
    if (r.hi <= r.lo) r.hi = r.lo * 10;
    return r;
  }
  if (is_x) {
    if (r.hi <= r.lo) r.hi = r.lo + 1;
    return r;
  }
  return Range{std::min(0.0, r.lo), nice_ceiling(r.hi)};
}

std::vector<Tick> ticks_of(const AxisSpec& axis, const Range& r) {
  if (!axis.ticks.empty()) return axis.ticks;
  return axis.log ? log_ticks(r.lo, r.hi) : linear_ticks(r.lo, r.hi, 5);
}

std::string polyline(const std::vector<ChartPoint>& points, const Scale& x, const Scale& y, const char* color,
                     bool dashed) {
  std::string out = fmt::format(R"(<polyline fill="none" stroke="{}" stroke-width="1.5"{} points=")", color,
                                dashed ? R"( stroke-dasharray="5 3")" : "");
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (i) out += ' ';
    out += coord(x.map(points[i].x)) + "," + coord(y.map(points[i].y));
  }
  out += "\"/>\n";
  return out;
}

}  // namespace

const char* palette_color(int index) {
  static constexpr const char* kPalette[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                             "#E69F00", "#56B4E9", "#000000", "#999933"};
  constexpr int kSize = sizeof kPalette / sizeof kPalette[0];
  return kPalette[((index % kSize) + kSize) % kSize];
}

std::string render_svg(const ChartSpec& chart) {
  const bool right = uses_right(chart);
  const double plot_right = kWidth - (right ? 76 : 24);
  const double plot_bottom = kTop + kPlotHeight;
  const std::size_t legend_rows = (chart.series.size() + kLegendPerRow - 1) / kLegendPerRow;
  const double height = plot_bottom + 44 + static_cast<double>(legend_rows) * kLegendRow + 8;

  Range xs, ys, y2s;
  for (const ChartSeries& s : chart.series) {
    for (const ChartPoint& p : s.points) {
      xs.add(p.x);
      (s.axis == Axis::kRight ? y2s : ys).add(p.y);
    }
  }
  for (const ChartLevel& l : chart.levels) (l.axis == Axis::kRight ? y2s : ys).add(l.y);
  for (const ChartSpan& s : chart.spans) (s.axis == Axis::kRight ? y2s : ys).add(s.y);
  const Range xr = domain(chart.x, xs, true);
  const Range yr = domain(chart.y, ys, false);
  const Range y2r = domain(chart.y2, y2s, false);
  const Scale x(xr.lo, xr.hi, kLeft, plot_right, chart.x.log);
  const Scale y(yr.lo, yr.hi, plot_bottom, kTop, chart.y.log);
  const Scale y2(y2r.lo, y2r.hi, plot_bottom, kTop, chart.y2.log);

  std::string out = fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" id="chart-{}" class="chart" width="{}" height="{}" viewBox="0 0 {} {}" font-family="sans-serif" role="img" aria-labelledby="chart-{}-title">)"
      "\n",
      escape(chart.id), coord(kWidth), coord(height), coord(kWidth), coord(height), escape(chart.id));
  out += fmt::format(R"(<title id="chart-{}-title">{}</title>)"
                     "\n",
                     escape(chart.id), escape(chart.title));
  out += fmt::format(R"(<rect x="0" y="0" width="{}" height="{}" fill="#ffffff"/>)"
                     "\n",
                     coord(kWidth), coord(height));
  out += fmt::format(R"(<text x="{}" y="22" font-size="15" font-weight="bold" text-anchor="middle">{}</text>)"
                     "\n",
                     coord(kWidth / 2), escape(chart.title));
  // Grid and ticks.
  out += "<g font-size=\"11\" fill=\"#333333\">\n";
  for (const Tick& t : ticks_of(chart.x, xr)) {
    if (t.value < xr.lo || t.value > xr.hi) continue;
    const std::string px = coord(x.map(t.value));
    out += fmt::format(
        R"(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#e4e4e4"/><text x="{0}" y="{3}" text-anchor="middle">{4}</text>)"
        "\n",
        px, coord(kTop), coord(plot_bottom), coord(plot_bottom + 15), escape(t.label));
  }
  for (const Tick& t : ticks_of(chart.y, yr)) {
    if (t.value < yr.lo || t.value > yr.hi) continue;
    const std::string py = coord(y.map(t.value));
    out += fmt::format(
        R"(<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke="#e4e4e4"/><text x="{3}" y="{1}" dy="4" text-anchor="end">{4}</text>)"
        "\n",
        coord(kLeft), py, coord(plot_right), coord(kLeft - 6), escape(t.label));
  }
  if (right) {
    for (const Tick& t : ticks_of(chart.y2, y2r)) {
      if (t.value < y2r.lo || t.value > y2r.hi) continue;
      out += fmt::format(R"(<text x="{}" y="{}" dy="4" text-anchor="start">{}</text>)"
                         "\n",
                         coord(plot_right + 6), coord(y2.map(t.value)), escape(t.label));
    }
  }
  out += "</g>\n";
  out += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#666666"/>)"
                     "\n",
                     coord(kLeft), coord(kTop), coord(plot_right - kLeft), coord(kPlotHeight));
  // Axis labels.
  out += fmt::format(R"(<text class="x-label" x="{}" y="{}" font-size="12" text-anchor="middle">{}</text>)"
                     "\n",
                     coord((kLeft + plot_right) / 2), coord(plot_bottom + 32), escape(chart.x.label));
  out += fmt::format(
      R"~(<text class="y-label" x="{0}" y="{1}" font-size="12" text-anchor="middle" transform="rotate(-90 {0} {1})">{2}</text>)~"
      "\n",
      coord(16), coord(kTop + kPlotHeight / 2), escape(chart.y.label));
  if (right) {
    out += fmt::format(
        R"~(<text class="y2-label" x="{0}" y="{1}" font-size="12" text-anchor="middle" transform="rotate(90 {0} {1})">{2}</text>)~"
        "\n",
        coord(kWidth - 12), coord(kTop + kPlotHeight / 2), escape(chart.y2.label));
  }
  // Markers and levels under the data.
  for (const ChartMarker& m : chart.markers) {
    if (m.x < xr.lo || m.x > xr.hi) continue;
    const std::string px = coord(x.map(m.x));
    out += fmt::format(
        R"(<g class="marker"><title>{4}</title><line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#888888" stroke-dasharray="2 3"/><text x="{0}" y="{3}" dx="3" font-size="10" fill="#555555">{5}</text></g>)"
        "\n",
        px, coord(kTop), coord(plot_bottom), coord(kTop + 11),
        escape(m.detail.empty() ? m.label : m.label + "\n" + m.detail), escape(m.label));
  }
  for (const ChartLevel& l : chart.levels) {
    const std::string py = coord((l.axis == Axis::kRight ? y2 : y).map(l.y));
    out += fmt::format(
        R"(<g class="level"><title>{3}</title><line x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke="#C00000" stroke-width="1.2" stroke-dasharray="6 3"/><text x="{2}" y="{1}" dx="-4" dy="-4" font-size="10" fill="#C00000" text-anchor="end">{3}</text></g>)"
        "\n",
        coord(kLeft), py, coord(plot_right), escape(l.label));
  }
  for (const ChartSpan& sp : chart.spans) {
    const std::string py = coord((sp.axis == Axis::kRight ? y2 : y).map(sp.y));
    out += fmt::format(
        R"(<g class="span"><title>{3}</title><line x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke="#C00000" stroke-width="2"/></g>)"
        "\n",
        coord(x.map(std::max(sp.x0, xr.lo))), py, coord(x.map(std::min(sp.x1, xr.hi))), escape(sp.label));
  }
  // Series.
  for (std::size_t i = 0; i < chart.series.size(); ++i) {
    const ChartSeries& s = chart.series[i];
    const char* color = palette_color(s.color >= 0 ? s.color : static_cast<int>(i));
    const Scale& sy = s.axis == Axis::kRight ? y2 : y;
    const std::vector<ChartPoint> drawn = downsample_min_max(s.points, kMaxBuckets);
    out += fmt::format("<g class=\"series\"><title>{}</title>\n", escape(s.name));
    out += polyline(drawn, x, sy, color, s.dashed);
    if (s.dots) {
      for (const ChartPoint& p : drawn) {
        out += fmt::format(R"(<circle cx="{}" cy="{}" r="3" fill="{}"/>)"
                           "\n",
                           coord(x.map(p.x)), coord(sy.map(p.y)), color);
      }
    }
    out += "</g>\n";
  }
  for (const ChartHighlight& h : chart.highlights) {
    const Scale& sy = h.axis == Axis::kRight ? y2 : y;
    out += fmt::format(
        R"(<g class="highlight"><title>{2}</title><circle cx="{0}" cy="{1}" r="7" fill="none" stroke="#C00000" stroke-width="2"/><text x="{0}" y="{1}" dx="9" dy="-9" font-size="11" fill="#C00000">{2}</text></g>)"
        "\n",
        coord(x.map(h.at.x)), coord(sy.map(h.at.y)), escape(h.label));
  }
  // Legend.
  for (std::size_t i = 0; i < chart.series.size(); ++i) {
    const ChartSeries& s = chart.series[i];
    const double lx = kLeft + static_cast<double>(i % kLegendPerRow) * 228;
    const std::size_t legend_row = i / kLegendPerRow;
    const double ly = plot_bottom + 52 + static_cast<double>(legend_row) * kLegendRow;
    const char* color = palette_color(s.color >= 0 ? s.color : static_cast<int>(i));
    out += fmt::format(
        R"(<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="2"{}/><text x="{}" y="{}" font-size="11" dy="4">{}</text>)"
        "\n",
        coord(lx), coord(ly), coord(lx + 22), coord(ly), color, s.dashed ? R"( stroke-dasharray="5 3")" : "",
        coord(lx + 27), coord(ly), escape(s.name));
  }
  out += "</svg>\n";
  return out;
}

namespace {

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string csv_value(double v) { return std::isfinite(v) ? fmt::format("{}", v) : ""; }

}  // namespace

std::string render_csv(const ChartSpec& chart) {
  std::string out = "# " + chart.title + "; x: " + chart.x.label + "; y: " + chart.y.label;
  if (uses_right(chart)) out += "; y2 (axis=right): " + chart.y2.label;
  out += "\nseries,axis,x,y\n";
  for (const ChartSeries& s : chart.series) {
    const char* axis = s.axis == Axis::kRight ? "right" : "left";
    for (const ChartPoint& p : s.points) {
      out += fmt::format("{},{},{},{}\n", csv_field(s.name), axis, csv_value(p.x), csv_value(p.y));
    }
  }
  for (const ChartMarker& m : chart.markers)
    out += fmt::format("#marker {},,{},\n", csv_field(m.label), csv_value(m.x));
  for (const ChartLevel& l : chart.levels) {
    out += fmt::format("#level {},{},,{}\n", csv_field(l.label), l.axis == Axis::kRight ? "right" : "left",
                       csv_value(l.y));
  }
  for (const ChartSpan& sp : chart.spans) {
    const char* axis = sp.axis == Axis::kRight ? "right" : "left";
    out += fmt::format("#span {},{},{},{}\n#span-end {},{},{},{}\n", csv_field(sp.label), axis, csv_value(sp.x0),
                       csv_value(sp.y), csv_field(sp.label), axis, csv_value(sp.x1), csv_value(sp.y));
  }
  for (const ChartHighlight& h : chart.highlights) {
    out += fmt::format("#highlight {},{},{},{}\n", csv_field(h.label), h.axis == Axis::kRight ? "right" : "left",
                       csv_value(h.at.x), csv_value(h.at.y));
  }
  return out;
}

}  // namespace sluice::html
