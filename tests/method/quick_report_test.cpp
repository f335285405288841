// sluice quick's table and JSON section, from a hand-made QuickReport.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "method/quick.h"

namespace sluice {
namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;
using ::testing::Not;

QuickRow make_row(const char* key, const char* test, std::uint32_t iodepth, double iops) {
  QuickRow row;
  row.key = key;
  row.test = test;
  row.iodepth = iodepth;
  row.iops = iops;
  row.bytes_per_second = iops * 4096;
  row.lat_mean_ns = 250000;
  row.lat_p99_ns = 900000;
  row.lat_p999_ns = 2000000;
  return row;
}

QuickReport sample_report() {
  QuickReport r;
  r.directory = "/data/sluice-quick-abc";
  r.file = "/data/sluice-quick-abc/testfile";
  r.file_size = 4ull << 30;
  r.sizing.size = r.file_size;
  r.sizing.wanted = r.file_size;
  r.engine = "io_uring";
  r.budget = 120s;
  r.slo = 10ms;
  r.elapsed_seconds = 118.4;
  r.rows.push_back(make_row("seq_write", "1 MiB sequential write", 16, 500));
  QuickRow cap = make_row("randread_capacity", "4 KiB random read capacity", 64, 41000);
  cap.capacity = {{"knee", {{"concurrency", 32}, {"iops", 40000.0}, {"lat_mean_ns", 800000.0}}}};
  r.rows.push_back(cap);
  r.rows.push_back(make_row("fsync_write", "16 KiB random write + fsync, psync", 1, 300));
  return r;
}

std::string line_with(const std::string& text, const std::string& needle) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.find(needle) != std::string::npos) return line;
  }
  return {};
}

TEST(QuickTable, HeaderNamesFileSizeEngineAndBudget) {
  const std::string t = render_quick_table(sample_report());
  EXPECT_THAT(t, HasSubstr("/data/sluice-quick-abc/testfile (4 GiB"));
  EXPECT_THAT(t, HasSubstr("io_uring, direct I/O, budget 120 s"));
}

TEST(QuickTable, ColumnsNameTheirUnits) {
  const std::string t = render_quick_table(sample_report());
  const std::string head = line_with(t, "concurrency");
  EXPECT_THAT(head, HasSubstr("IOPS"));
  EXPECT_THAT(head, HasSubstr("lat p99.9"));
  EXPECT_THAT(line_with(t, "1 MiB sequential write"), HasSubstr("MiB/s"));
  EXPECT_THAT(line_with(t, "1 MiB sequential write"), HasSubstr("us"));
}

TEST(QuickTable, CapacityRowShowsConcurrencyIopsAndLatency) {
  const std::string row = line_with(render_quick_table(sample_report()), "4 KiB random read capacity");
  EXPECT_THAT(row, HasSubstr(" 64 "));
  EXPECT_THAT(row, HasSubstr("41000"));
  EXPECT_THAT(row, HasSubstr("250"));
}

TEST(QuickTable, NotesStateTheLimitAndTheKnee) {
  const std::string t = render_quick_table(sample_report());
  EXPECT_THAT(t, HasSubstr("mean latency stays within 10 ms"));
  EXPECT_THAT(t, HasSubstr("knee at concurrency 32"));
}

TEST(QuickTable, ConcurrencyOfJobsShowsDepthTimesJobs) {
  QuickReport r = sample_report();
  r.rows[1].iodepth = 1;
  r.rows[1].numjobs = 8;
  EXPECT_THAT(line_with(render_quick_table(r), "random read capacity"), HasSubstr("1x8"));
}

TEST(QuickTable, CapacityBeyondTheLimitAtOneSaysNone) {
  QuickReport r = sample_report();
  r.rows[1].within_slo = false;
  const std::string t = render_quick_table(r);
  EXPECT_THAT(line_with(t, "random read capacity  "), HasSubstr("none"));
  EXPECT_THAT(t, HasSubstr("even concurrency 1 exceeded the limit"));
}

TEST(QuickTable, WarningsBlockListsEachWarning) {
  QuickReport r = sample_report();
  Problem p;
  p.severity = Problem::Severity::kWarning;
  p.option = "size";
  p.message = "test file shrunk to 1 GiB";
  r.run.warnings.push_back(p);
  const std::string t = render_quick_table(r);
  EXPECT_THAT(t, HasSubstr("warnings"));
  EXPECT_THAT(t, HasSubstr("  size: test file shrunk to 1 GiB"));
}

TEST(QuickTable, NoWarningsNoBlock) { EXPECT_THAT(render_quick_table(sample_report()), Not(HasSubstr("warnings"))); }

TEST(QuickTable, SaysTheFileWasRemovedOrKept) {
  QuickReport r = sample_report();
  EXPECT_THAT(render_quick_table(r), HasSubstr("The test file was removed."));
  r.kept = true;
  EXPECT_THAT(render_quick_table(r), HasSubstr("kept: /data/sluice-quick-abc/testfile"));
}

TEST(QuickTable, InterruptedRunSaysSo) {
  QuickReport r = sample_report();
  r.run.interrupted = true;
  EXPECT_THAT(render_quick_table(r), HasSubstr("interrupted"));
}

TEST(QuickJson, SummaryHasOneEntryPerRowWithConcurrencyAndLatency) {
  const nlohmann::json j = quick_summary_json(sample_report());
  ASSERT_EQ(j["tests"].size(), 3u);
  const auto& cap = j["tests"][1];
  EXPECT_EQ(cap["key"], "randread_capacity");
  EXPECT_EQ(cap["concurrency"], 64);
  EXPECT_DOUBLE_EQ(cap["iops"].get<double>(), 41000);
  EXPECT_EQ(cap["lat_p999_ns"], 2000000u);
  EXPECT_EQ(cap["capacity"]["knee"]["concurrency"], 32);
}

TEST(QuickJson, SummaryRecordsBudgetSloAndSize) {
  const nlohmann::json j = quick_summary_json(sample_report());
  EXPECT_DOUBLE_EQ(j["budget_s"].get<double>(), 120.0);
  EXPECT_EQ(j["slo_ns"], 10000000);
  EXPECT_EQ(j["slo_stat"], "mean");
  EXPECT_EQ(j["file_size"], 4ull << 30);
  EXPECT_EQ(j["size_limited_by"], "cache rules");
  EXPECT_EQ(j["engine"], "io_uring");
}

}  // namespace
}  // namespace sluice
