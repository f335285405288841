#include "html/series_chart.h"

#include <fmt/format.h>

#include "html/html_report.h"
#include "html/svg_text.h"

namespace sluice::html {
namespace {

std::string joined(const std::vector<std::string>& lines, const char* separator) {
  std::string out;
  for (const std::string& line : lines) out += (out.empty() ? "" : separator) + line;
  return out;
}

const SeriesSegment* segment_at(const SeriesChartInput& input, std::size_t position) {
  for (const SeriesSegment& s : input.segments) {
    if (position >= s.first && position <= s.last) return &s;
  }
  return nullptr;
}

std::string changes_table(const SeriesChartInput& input) {
  if (input.changes.empty()) return "<p>No change point: one segment.</p>\n";
  std::string out =
      "<table class=\"environment\">\n<tr><th>change</th><th>where and how much</th><th>what changed since the result "
      "before</th></tr>\n";
  for (std::size_t i = 0; i < input.changes.size(); ++i) {
    const SeriesChange& c = input.changes[i];
    std::string differences;
    for (const std::string& d : c.differences) differences += (differences.empty() ? "" : "<br>") + escape(d);
    out += fmt::format("<tr><td>{} {}</td><td>{}</td><td>{}</td></tr>\n", i + 1, escape(c.label), escape(c.summary),
                       differences.empty() ? std::string("nothing recorded differs") : differences);
  }
  return out + "</table>\n";
}

std::string points_table(const SeriesChartInput& input) {
  std::string out =
      "<table>\n<tr><th>#</th><th>result</th><th>started (UTC)</th><th>label</th><th>value</th>"
      "<th>segment mean</th><th>change point</th></tr>\n";
  for (std::size_t i = 0; i < input.points.size(); ++i) {
    const SeriesPoint& p = input.points[i];
    const SeriesSegment* s = segment_at(input, i + 1);
    std::string mark;
    for (std::size_t k = 0; k < input.changes.size(); ++k) {
      if (input.changes[k].index == i + 1) mark = fmt::format("{} {}", k + 1, input.changes[k].label);
    }
    out += fmt::format("<tr{}><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                       mark.empty() ? "" : " class=\"worse\"", i + 1, escape(p.id), escape(p.started_at),
                       escape(p.label), short_number(p.value), s ? short_number(s->mean) : "", escape(mark));
  }
  return out + "</table>\n";
}

}  // namespace

ChartSpec series_chart(const SeriesChartInput& input) {
  ChartSpec chart;
  chart.id = input.id;
  chart.title = input.title;
  chart.x.label = "result (oldest first)";
  chart.y.label = input.y_label;
  ChartSeries series;
  series.name = input.title + " (median of each result)";
  series.dots = true;
  for (std::size_t i = 0; i < input.points.size(); ++i) {
    series.points.push_back({static_cast<double>(i + 1), input.points[i].value});
  }
  chart.series.push_back(std::move(series));
  if (!input.points.empty()) {
    chart.x.lo = 0.5;
    chart.x.hi = static_cast<double>(input.points.size()) + 0.5;
  }
  for (const SeriesSegment& s : input.segments) {
    chart.spans.push_back({static_cast<double>(s.first) - 0.4, static_cast<double>(s.last) + 0.4, s.mean, Axis::kLeft,
                           fmt::format("mean of results {} to {}: {}", s.first, s.last, short_number(s.mean))});
  }
  for (std::size_t i = 0; i < input.changes.size(); ++i) {
    const SeriesChange& c = input.changes[i];
    chart.markers.push_back(
        {static_cast<double>(c.index) - 0.5, fmt::format("{} {}", i + 1, c.label),
         c.summary + (c.differences.empty() ? "\nnothing recorded differs" : "\n" + joined(c.differences, "\n"))});
  }
  chart.note = fmt::format(
      "{} results; red lines: the mean of each segment between change points; dotted lines: "
      "the change points (hover for what changed there)",
      input.points.size());
  return chart;
}

std::string render_series_page(const std::string& heading, const std::string& method,
                               const std::vector<SeriesChartInput>& inputs) {
  std::string body = "<h1>" + escape(heading) + "</h1>\n<p class=\"meta\">" + escape(method) + "</p>\n";
  for (const SeriesChartInput& input : inputs) {
    body += fmt::format("<section id=\"{}\">\n<h2>{}</h2>\n", escape(input.id), escape(input.title));
    body += html_figure(series_chart(input));
    body += "<h3>Change points</h3>\n" + changes_table(input);
    body += "<h3>Results</h3>\n" + points_table(input) + "</section>\n";
  }
  return html_page(heading, body);
}

}  // namespace sluice::html
