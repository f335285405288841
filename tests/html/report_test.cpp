// Charts and tables from synthetic result documents: spectrum ticks and its last plotted percentile, CDF
// monotonic, capacity marks, table numbers as the text output rounds them, bad input files, determinism,
// no external references, and a 24-hour 1 s series under 5 MB with its peak kept.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>

#include "common/error.h"
#include "html/html_report.h"
#include "html/report_input.h"
#include "html/result_charts.h"
#include "html/result_tables.h"
#include "support/temp_dir.h"

namespace sluice::html {
namespace {

using nlohmann::json;

json job_doc(std::uint64_t ios, std::size_t seconds) {
  json read = {{"io_bytes", ios * 4096},
               {"bw_bytes", 4096 * 10890},
               {"iops", 10890.4},
               {"runtime", 1000},
               {"total_ios", ios},
               {"clat_ns",
                {{"min", 31000},
                 {"max", 38652000},
                 {"mean", 262990.0},
                 {"stddev", 489130.0},
                 {"N", ios},
                 {"percentile",
                  {{"50.000000", 150528},
                   {"90.000000", 300000},
                   {"99.000000", 1003520},
                   {"99.900000", 5013504},
                   {"99.990000", 20000000}}}}}};
  json doc = {
      {"fio version", "sluice-0.1.0"},
      {"time", "Mon Nov 30 10:00:00 2026"},
      {"jobs",
       json::array({{{"jobname", "j1"}, {"read", read}, {"job options", {{"rw", "randread"}, {"bs", "4k"}}}}})}};
  doc["sluice"] = {{"version", "0.1.0"},
                   {"environment", {{"host", "h"}, {"kernel", "6.1"}, {"cpu", {{"count", 2}}}}},
                   {"jobs", json::array({{{"jobname", "j1"}, {"series", {{"interval_ns", 1000000000}}}}})}};
  // The samples are built in place, field by field: an initializer list copies every node it holds, which
  // for a day of samples (86,400) cost more than rendering the report.
  json& samples = doc["sluice"]["jobs"][0]["series"]["samples"] = json::array();
  samples.get_ref<json::array_t&>().reserve(seconds);
  for (std::size_t i = 0; i < seconds; ++i) {
    const double iops = i == seconds / 2 ? 99999.0 : 1000.0 + static_cast<double>(i % 13);
    json& sample = samples.emplace_back(json::object());
    sample["t_s"] = static_cast<double>(i + 1);
    json& read_sample = sample["read"];
    read_sample["iops"] = iops;
    read_sample["bw_bytes"] = iops * 4096;
    read_sample["lat_mean_ns"] = 1e5;
    read_sample["lat_p99_ns"] = 2e5;
  }
  return doc;
}

const ChartSpec* find(const std::vector<ChartSpec>& charts, const std::string& id) {
  for (const ChartSpec& c : charts) {
    if (c.id == id) return &c;
  }
  return nullptr;
}

TEST(ResultCharts, SpectrumTicksAndLastPercentile) {
  // 1000 I/Os support p <= 99.9%: the 99.99% point is not drawn.
  const auto charts = result_charts(job_doc(1000, 10), "", "");
  const ChartSpec* s = find(charts, "spectrum");
  ASSERT_NE(s, nullptr);
  ASSERT_EQ(s->series.size(), 1u);
  EXPECT_EQ(s->series[0].name, "j1 read");
  EXPECT_NEAR(s->series[0].points.back().x, 1000, 1e-6);
  std::vector<std::string> labels;
  for (const Tick& t : s->x.ticks) labels.push_back(t.label);
  EXPECT_EQ(labels, (std::vector<std::string>{"0%", "50%", "90%", "99%", "99.9%"}));
  EXPECT_EQ(s->y.label, "latency (ms), log scale");
  const auto more = result_charts(job_doc(1000000, 10), "", "");
  EXPECT_NEAR(find(more, "spectrum")->series[0].points.back().x, 1e4, 1e-6);
}

TEST(ResultCharts, CdfIsMonotonic) {
  const ChartSpec* c = nullptr;
  const auto charts = result_charts(job_doc(1000, 10), "", "");
  c = find(charts, "cdf");
  ASSERT_NE(c, nullptr);
  const auto& p = c->series.at(0).points;
  for (std::size_t i = 1; i < p.size(); ++i) {
    EXPECT_GE(p[i].x, p[i - 1].x);
    EXPECT_GE(p[i].y, p[i - 1].y);
  }
}

TEST(ResultCharts, SpectrumFromJsonPlusBins) {
  json doc = job_doc(1000, 0);
  json bins = json::object();
  for (int i = 1; i <= 100; ++i) bins[std::to_string(i * 1000)] = 10;  // 1000 I/Os, 1..100 us
  doc["jobs"][0]["read"]["clat_ns"]["bins"] = bins;
  const auto curves = latency_curves(doc);
  ASSERT_EQ(curves.size(), 1u);
  EXPECT_EQ(curves[0].ios, 1000u);
  EXPECT_DOUBLE_EQ(curves[0].percentiles.front().x, 1.0);  // 10 of 1000 at 1 us
  EXPECT_DOUBLE_EQ(curves[0].percentiles.front().y, 1000);
  EXPECT_DOUBLE_EQ(curves[0].percentiles.back().x, 100.0);
}

TEST(ResultCharts, TimelineAndCapacityMarks) {
  json doc = job_doc(1000, 30);
  doc["sluice"]["capacity"] = {{"slo_ns", 2000000},
                               {"stat", "p99"},
                               {"curve", json::array({{{"concurrency", 1}, {"iops", 1000}, {"lat_p99_ns", 500000}},
                                                      {{"concurrency", 2}, {"iops", 1900}, {"lat_p99_ns", 700000}},
                                                      {{"concurrency", 4}, {"iops", 2000}, {"lat_p99_ns", 1500000}},
                                                      {{"concurrency", 8}, {"iops", 1500}, {"lat_p99_ns", 4000000}}})},
                               {"knee", {{"concurrency", 2}, {"iops", 1900}}},
                               {"thrashing", {{"concurrency", 8}, {"iops", 1500}}}};
  const auto charts = result_charts(doc, "", "");
  const ChartSpec* t = find(charts, "timeline-j1");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->series.size(), 2u);
  EXPECT_EQ(t->y2.label, "p99 latency (µs), dashed");
  ASSERT_NE(find(charts, "bandwidth-j1"), nullptr);
  const ChartSpec* c = find(charts, "capacity");
  ASSERT_NE(c, nullptr);
  ASSERT_EQ(c->highlights.size(), 2u);
  EXPECT_EQ(c->highlights[0].label, "knee (2)");
  EXPECT_EQ(c->highlights[1].label, "thrashing (8)");
  ASSERT_EQ(c->levels.size(), 1u);
  EXPECT_DOUBLE_EQ(c->levels[0].y, 2.0);  // ms
  EXPECT_EQ(c->y2.label, "p99 latency (ms), dashed");
}

TEST(ResultCharts, InterferencePhasesRunOneAfterAnother) {
  json doc = job_doc(1000, 0);
  json timeline = json::array();
  for (const char* phase : {"idle", "loaded"}) {
    for (int t = 1; t <= 3; ++t) {
      timeline.push_back({{"phase", phase},
                          {"threads", 1},
                          {"t_s", t},
                          {"fg_iops", 100},
                          {"fg_lat_p99_ns", 3e6},
                          {"dirty_bytes", 1048576 * t},
                          {"writeback_bytes", 0}});
    }
  }
  doc["sluice"]["interference"] = {{"timeline", timeline},
                                   {"dirty_limits", {{"limit_bytes", 8 * 1048576}, {"background_bytes", 4 * 1048576}}}};
  const auto charts = result_charts(doc, "", "");
  const ChartSpec* fg = find(charts, "interference");
  const ChartSpec* wb = find(charts, "dirty");
  ASSERT_NE(fg, nullptr);
  ASSERT_NE(wb, nullptr);
  ASSERT_EQ(fg->markers.size(), 2u);
  EXPECT_EQ(fg->markers[0].label, "idle x1");
  EXPECT_DOUBLE_EQ(fg->markers[1].x, 3);  // loaded starts where idle ended
  EXPECT_DOUBLE_EQ(fg->series[0].points.back().x, 6);
  EXPECT_EQ(fg->y2.label, "fsync p99 (ms), dashed");
  EXPECT_DOUBLE_EQ(wb->series[0].points[2].y, 3);  // MiB
  ASSERT_EQ(wb->levels.size(), 2u);
  EXPECT_DOUBLE_EQ(wb->levels[0].y, 8);
}

TEST(ResultTables, NumbersRoundedAsTheTextOutput) {
  const std::string table = results_table(job_doc(1000, 0));
  // IOPS=10.9k, BW=42.5MiB/s; clat (usec): min=31, max=38652, avg=262.99, stdev=489.13; percentiles in usec
  // rounded up: 151, 1004, 5014.
  EXPECT_NE(table.find("<td>10.9k</td><td>42.5MiB/s</td><td>1000</td>"), std::string::npos) << table;
  EXPECT_NE(table.find("<td>usec</td><td>31</td><td>38652</td><td>262.99</td><td>489.13</td>"), std::string::npos)
      << table;
  EXPECT_NE(table.find("<td>usec</td><td>151</td><td>1004</td><td>5014</td>"), std::string::npos) << table;
  const std::string jobs = job_file_block(job_doc(1000, 0));
  EXPECT_NE(jobs.find("[j1]\nbs=4k\nrw=randread\n"), std::string::npos);
  EXPECT_NE(environment_table(job_doc(1000, 0)).find("<td>cpu.count</td><td>2</td>"), std::string::npos);
}

// Found by the result_input fuzzer (2026-12-01): a percentile of 8.9e90 was converted to an integer
// (undefined behaviour), and a field of an unexpected type ("jobname": 5, "steady": "yes") made nlohmann's
// value() throw, which reached the user as an internal error. Corrupt values now read as 0, "-" or the
// default; UBSan (the CI's sanitizer build) fails this test if a conversion comes back.
TEST(HtmlReport, CorruptNumbersAndTypesAreShownNotFatal) {
  json doc = job_doc(1000, 3);
  doc["jobs"][0]["read"]["clat_ns"]["percentile"]["99.000000"] = 8.88889e90;
  doc["jobs"][0]["read"]["clat_ns"]["min"] = -5.0;
  doc["jobs"][0]["read"]["total_ios"] = 1e300;
  doc["jobs"][0]["jobname"] = 5;
  doc["fio version"] = json::array();
  doc["sluice"]["interference"] = {{"phases", json::array({json::array({1, 2}), {{"name", 7}, {"threads", "x"}}})},
                                   {"trials", json::array({{{"settings", 3}, {"baseline", "yes"}, {"skipped", 1}}})}};
  const std::string table = results_table(doc);
  EXPECT_NE(table.find("<td>?</td>"), std::string::npos) << "a job name that is not a string shows as ?";
  const std::string html = render_html_report({ReportInput{"corrupt.json", {doc}}});
  EXPECT_NE(html.find("unknown version"), std::string::npos);
}

// Found by fuzzing (2026-12-01, result_input): json+ bins whose counts sum beyond 64 bits were converted to
// an integer (UBSan: float-cast-overflow in the latency curves).
TEST(HtmlReport, HistogramBinCountsBeyond64BitsAreNotFatal) {
  json doc = job_doc(1000, 3);
  doc["jobs"][0]["read"]["clat_ns"]["bins"] = {{"1000", 2.22222e118}, {"2000", 5}};
  const std::string html = render_html_report({ReportInput{"bins.json", {doc}}});
  EXPECT_NE(html.find("bins.json"), std::string::npos);
}

TEST(HtmlReport, DeterministicSelfContainedAndSmallForADay) {
  // A day of one-second samples: the size bound is about a day's report. Rendered twice from the same
  // inputs (no copies of the 86,400-sample document: copying it cost more than rendering it).
  std::vector<ReportInput> inputs(1);
  inputs[0].name = "day.json";
  inputs[0].repetitions.push_back(job_doc(100000, 86400));
  const std::string html = render_html_report(inputs);
  EXPECT_EQ(html, render_html_report(inputs));
  EXPECT_LT(html.size(), 5u * 1000 * 1000);
  EXPECT_FALSE(std::regex_search(html, std::regex(R"((src|href)\s*=\s*["']?\s*(https?:)?//)", std::regex::icase)));
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("@font-face"), std::string::npos);
  // The one-second spike of 99999 IOPS survives the downsampling: the timeline's y axis reaches 100k.
  EXPECT_NE(html.find(">100000</text>"), std::string::npos);
  for (const char* id : {"chart-spectrum", "chart-cdf", "chart-timeline-j1", "chart-bandwidth-j1"}) {
    EXPECT_NE(html.find(std::string("id=\"") + id + "\""), std::string::npos) << id;
  }
}

TEST(HtmlReport, SeveralInputsGetOverlaysAndPrefixes) {
  ReportInput a{"a.json", {job_doc(1000, 5)}};
  ReportInput b{"b.json", {job_doc(1000, 5), job_doc(1000, 5)}};
  const auto charts = report_charts({a, b});
  ASSERT_FALSE(charts.empty());
  EXPECT_EQ(charts.front().id, "overlay-spectrum");
  EXPECT_EQ(charts.front().series.size(), 2u);
  EXPECT_EQ(charts.front().series[1].name, "b.json: j1 read");
  EXPECT_NE(find(charts, "r2-timeline-j1"), nullptr);
  EXPECT_NE(spread_table(b).find("<td>2</td>"), std::string::npos);
}

}  // namespace
}  // namespace sluice::html
