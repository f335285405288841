#include "html/html_report.h"

#include <fmt/format.h>

#include "common/json_read.h"
#include "html/result_charts.h"
#include "html/result_tables.h"
#include "html/svg_text.h"

namespace sluice::html {
namespace {

constexpr const char* kStyle =
    R"(body{font-family:sans-serif;margin:24px auto;padding:0 16px;max-width:1100px;color:#1a1a1a;background:#fff}
h1{font-size:22px}h2{font-size:18px;border-bottom:1px solid #ccc;padding-bottom:4px;margin-top:32px}h3{font-size:15px}
table{border-collapse:collapse;margin:8px 0 16px;font-size:13px}th,td{border:1px solid #ccc;padding:3px 8px;text-align:right}
th{background:#f0f0f0}td:first-child,td:nth-child(2){text-align:left}
table.environment td{text-align:left}pre{background:#f6f6f6;padding:8px;font-size:12px;overflow-x:auto}
figure{margin:12px 0 20px}figcaption{font-size:12px;color:#555}svg.chart{max-width:100%;height:auto}
.meta{color:#555;font-size:13px}tr.better td{background:#d8f0d8}tr.worse td{background:#f6d6d6}
@media print{h2{page-break-before:auto}figure{page-break-inside:avoid}})";

std::string id_prefix(std::size_t index, std::size_t count) {
  return count > 1 ? fmt::format("r{}-", index + 1) : std::string();
}

std::string title_suffix(const ReportInput& input, std::size_t count) {
  return count > 1 ? " (" + input.name + ")" : std::string();
}

std::string input_section(const ReportInput& input, std::size_t index, std::size_t count) {
  const nlohmann::json& doc = input.repetitions.front();
  std::string out = fmt::format("<section id=\"input-{}\">\n<h2>{}</h2>\n", index + 1, escape(input.name));
  out += fmt::format("<p class=\"meta\">{} result, {} {}{}</p>\n", escape(result_kind(doc)),
                     escape(text_or(doc, "fio version", "unknown version")),
                     doc.contains("time") && doc["time"].is_string() ? "from " + escape(doc["time"].get<std::string>())
                                                                     : std::string(),
                     input.repetitions.size() > 1
                         ? fmt::format("; {} repetitions, charts show the first", input.repetitions.size())
                         : std::string());
  out += "<h3>Results</h3>\n" + results_table(doc);
  const std::string spread = spread_table(input);
  if (!spread.empty()) out += "<h3>Spread over repetitions</h3>\n" + spread;
  for (const ChartSpec& chart : result_charts(doc, id_prefix(index, count), title_suffix(input, count)))
    out += html_figure(chart);
  const std::string capacity = capacity_table(doc);
  if (!capacity.empty()) out += "<h3>Capacity curve</h3>\n" + capacity;
  const std::string interference = interference_tables(doc);
  if (!interference.empty()) out += "<h3>Interference phases and knob trials</h3>\n" + interference;
  const std::string jobs = job_file_block(doc);
  if (!jobs.empty()) out += "<h3>Job options</h3>\n" + jobs;
  const std::string env = environment_table(doc);
  if (!env.empty()) out += "<h3>Environment</h3>\n" + env;
  return out + "</section>\n";
}

}  // namespace

std::string html_figure(const ChartSpec& chart) {
  std::string out = "<figure>\n" + render_svg(chart);
  if (!chart.note.empty()) out += "<figcaption>" + escape(chart.note) + "</figcaption>\n";
  return out + "</figure>\n";
}

std::string html_page(const std::string& title, const std::string& body) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" +
         escape(title) + "</title>\n<style>\n" + kStyle + "\n</style>\n</head>\n<body>\n" + body + "</body>\n</html>\n";
}

std::vector<ChartSpec> report_charts(const std::vector<ReportInput>& inputs) {
  std::vector<ChartSpec> out = overlay_charts(inputs);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    for (ChartSpec& c : result_charts(inputs[i].repetitions.front(), id_prefix(i, inputs.size()),
                                      title_suffix(inputs[i], inputs.size()))) {
      out.push_back(std::move(c));
    }
  }
  return out;
}

std::string render_html_report(const std::vector<ReportInput>& inputs, const std::vector<Heatmap>& heatmaps,
                               const std::string& verdicts) {
  std::string names;
  for (const ReportInput& input : inputs) names += (names.empty() ? "" : ", ") + input.name;
  std::string out = "<h1>sluice report: " + escape(names) + "</h1>\n";
  const std::vector<ChartSpec> overlays = overlay_charts(inputs);
  if (!overlays.empty() || !verdicts.empty()) {
    out += "<section id=\"compare\">\n<h2>Inputs compared</h2>\n" + verdicts;
    for (const ChartSpec& c : overlays) out += html_figure(c);
    out += "</section>\n";
  }
  for (std::size_t i = 0; i < inputs.size(); ++i) out += input_section(inputs[i], i, inputs.size());
  if (!heatmaps.empty()) {
    out += "<section id=\"heatmaps\">\n<h2>Latency heatmaps</h2>\n";
    for (const Heatmap& map : heatmaps) {
      out += "<figure>\n" + render_heatmap_svg(map) +
             fmt::format(
                 "<figcaption>{} I/Os in {} columns of time and {} log-spaced latency rows, from the "
                 "completion-latency histogram of each logged window</figcaption>\n</figure>\n",
                 map.total, map.counts.size(), map.row_edges_ns.size() - 1);
    }
    out += "</section>\n";
  }
  return html_page("sluice report: " + names, out);
}

}  // namespace sluice::html
