// sluice report INPUT... -o report.html: one self-contained HTML file (html/html_report.h), or one chart as
// SVG or CSV.
#include <fmt/format.h>

#include <cstdio>

#include "cli/command_options.h"
#include "cli/commands.h"
#include "cli/history_lookup.h"
#include "cli/output.h"
#include "common/error.h"
#include "common/nearest.h"
#include "compare/compare.h"
#include "html/compare_tables.h"
#include "html/html_report.h"
#include "html/report_input.h"

namespace sluice {
namespace {

constexpr const char* kDescription =
    R"(Draws results as one HTML file that needs nothing else: charts are inline SVG written by sluice (no
scripts, no fonts, no network references), so it opens offline, in CI artifact viewers and with
JavaScript off, and prints. The same inputs always give the same bytes.
INPUT is a JSON file written by sluice run, quick, capacity, interfere or precondition with
--output-format=json (json+ adds the full latency histogram: a finer spectrum), or by fio with
--output-format=json. Charts: latency percentile spectrum and CDF per job and direction, IOPS with p99 and
bandwidth per interval, the capacity curve (SLO, knee, thrashing), the interference timeline (Dirty and
Writeback, phases) and, from --hist-log files, latency heatmaps over time. With several inputs their spectra are also overlaid. Tables: the numbers as the text
output rounds them, the job options and the environment.
)";

constexpr const char* kNotes =
    R"(--format=svg or csv writes the one chart named by --chart (an unknown name lists the charts of the inputs);
long series are drawn as the min and max of 800 buckets, so a day of 1 s samples stays small.
)";

struct ReportArgs {
  std::vector<std::string> inputs;
  std::string format = "html";
  std::string chart;
  std::string output;
  std::vector<std::string> hist_logs;
  std::string db;
};

CommandTable<ReportArgs> make_table() {
  CommandInfo info = command_info("report",
                                  "draw results (sluice or fio JSON files) as one self-contained HTML file with "
                                  "charts: sluice report A.json [B.json...] -o report.html",
                                  kDescription);
  info.positionals = {{"INPUT...", "result JSON files (sluice's or fio's --output-format=json)", true, true}};
  info.notes = kNotes;
  CommandTable<ReportArgs> t(std::move(info));
  OptionInfo output = text_arg("output", "FILE", "",
                               "write to FILE instead of stdout (replaced only once complete; when it cannot be "
                               "written, the page goes to stdout and the exit is 1); -o FILE is the same");
  output.default_text = "stdout";
  t.add(std::move(output), [](ReportArgs& a, const OptionValue& v) { a.output = v.text; });
  OptionInfo format = choice_arg("format", {"html", "svg", "csv"}, "html",
                                 "html is the whole report; svg and csv are the one chart named by --chart");
  format.value_name = "FMT";
  t.add(std::move(format), [](ReportArgs& a, const OptionValue& v) { a.format = v.text; });
  t.add(text_arg("chart", "NAME", "",
                 "the chart --format=svg|csv exports: spectrum, cdf, timeline-JOB, bandwidth-JOB, "
                 "capacity, interference, dirty (r2-... for the second input; overlay-spectrum)"),
        [](ReportArgs& a, const OptionValue& v) { a.chart = v.text; });
  OptionInfo hist = list_arg("hist-log", "FILE,...", ValueType::kString, "",
                             "completion-latency histogram logs (run with --write_hist_log=P --log_hist_msec=1000; "
                             "fio's are the same format): one latency heatmap over time per file and direction");
  hist.repeatable = true;
  t.add(std::move(hist), [](ReportArgs& a, const OptionValue& v) {
    a.hist_logs.insert(a.hist_logs.end(), v.list.begin(), v.list.end());
  });
  t.add(text_arg("db", "PATH", "",
                 "the history database ids and labels are looked up in; default $SLUICE_DB, else "
                 "~/.local/share/sluice/history.db"),
        [](ReportArgs& a, const OptionValue& v) { a.db = v.text; });
  return t;
}

// With several inputs, sluice compare's verdicts of each against the first (its defaults; differing job
// options are compared and listed, as a report of two configurations is what the user asked for).
std::string verdict_tables(const std::vector<ResultSet>& sets) {
  if (sets.size() < 2) return {};
  CompareOptions options;
  options.force = true;
  return html::compare_tables(compare_sets(sets, options));
}

const CommandTable<ReportArgs>& table() {
  static const CommandTable<ReportArgs> kTable = make_table();
  return kTable;
}

// "-o FILE" and "-o=FILE" as --output: the one short option people expect of a file-writing tool.
std::vector<std::string> expand_short_output(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (const std::string& arg : args) {
    if (arg == "-o") {
      out.push_back("--output");
    } else if (arg.rfind("-o=", 0) == 0) {
      out.push_back("--output=" + arg.substr(3));
    } else {
      out.push_back(arg);
    }
  }
  return out;
}

std::string export_chart(const std::vector<html::ReportInput>& inputs, const std::vector<html::Heatmap>& heatmaps,
                         const ReportArgs& cli) {
  const std::vector<html::ChartSpec> charts = html::report_charts(inputs);
  std::vector<std::string> ids;
  for (const html::ChartSpec& c : charts) {
    if (c.id == cli.chart) return cli.format == "svg" ? html::render_svg(c) : html::render_csv(c);
    ids.push_back(c.id);
  }
  for (const html::Heatmap& m : heatmaps) {
    if (m.id == cli.chart) return cli.format == "svg" ? html::render_heatmap_svg(m) : html::render_heatmap_csv(m);
    ids.push_back(m.id);
  }
  if (ids.empty())
    throw UserError("report: the inputs have no data to chart (no latency, series, capacity or interference)");
  std::string list;
  for (const std::string& id : ids) list += (list.empty() ? "" : ", ") + id;
  if (cli.chart.empty()) {
    throw UserError(fmt::format("--format={} needs --chart=NAME; the inputs have: {}", cli.format, list));
  }
  const std::string nearest = nearest_of(cli.chart, ids);
  throw UserError(fmt::format("--chart={}: no such chart{}; the inputs have: {}", cli.chart,
                              nearest.empty() ? "" : fmt::format(" (did you mean {}?)", nearest), list));
}

}  // namespace

const CommandInfo& report_command_info() { return table().info(); }

int report_command(const std::vector<std::string>& args) {
  const ParsedArgs parsed = parse_arguments(table().info(), expand_short_output(args));
  ReportArgs cli;
  table().apply(parsed, cli, nullptr);
  cli.inputs = parsed.positionals;
  if (!cli.chart.empty() && cli.format == "html") {
    throw UserError(
        fmt::format("--chart={}: only with --format=svg or --format=csv (html draws every chart)", cli.chart));
  }
  const HistoryLookup lookup = history_lookup(cli.db);
  std::vector<ResultSet> sets;
  for (const std::string& ref : cli.inputs) sets.push_back(load_result_set(ref, lookup));
  std::vector<html::ReportInput> inputs;
  inputs.reserve(sets.size());
  for (const ResultSet& set : sets) inputs.push_back({set.name, set.repetitions});
  std::vector<html::Heatmap> heatmaps;
  for (const std::string& path : cli.hist_logs) {
    for (html::Heatmap& m : html::load_heatmaps(path)) heatmaps.push_back(std::move(m));
  }
  const std::string document = cli.format == "html" ? html::render_html_report(inputs, heatmaps, verdict_tables(sets))
                                                    : export_chart(inputs, heatmaps, cli);
  write_documents({document}, cli.output);
  return kExitOk;
}

}  // namespace sluice
