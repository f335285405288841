// Values of render_json computed from the RunResult: rates, percentiles, buckets, group_reporting, and
// well-formed output for empty and degenerate results.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "report/reporters.h"
#include "report_test_support.h"

namespace sluice {
namespace {

const nlohmann::json& first_job(const nlohmann::json& doc) { return doc.at("jobs").at(0); }

TEST(JsonValues, IopsIsIosOverRuntime) {
  const nlohmann::json doc = render_json(test::make_run({test::make_job("a", 1000, 500)}), false);
  EXPECT_DOUBLE_EQ(first_job(doc).at("read").at("iops").get<double>(), 500.0);  // 1000 ios / 2 s
  EXPECT_DOUBLE_EQ(first_job(doc).at("write").at("iops").get<double>(), 250.0);
}

TEST(JsonValues, BandwidthIsInBytesAndKibPerSecond) {
  const nlohmann::json doc = render_json(test::make_run({test::make_job("a", 1000, 0)}), false);
  const nlohmann::json& read = first_job(doc).at("read");
  EXPECT_EQ(read.at("io_bytes").get<std::uint64_t>(), 4'096'000u);
  EXPECT_EQ(read.at("io_kbytes").get<std::uint64_t>(), 4000u);
  EXPECT_EQ(read.at("bw_bytes").get<std::uint64_t>(), 2'048'000u);
  EXPECT_EQ(read.at("bw").get<std::uint64_t>(), 2000u);
  EXPECT_EQ(read.at("runtime").get<std::uint64_t>(), 2000u);
  EXPECT_EQ(read.at("total_ios").get<std::uint64_t>(), 1000u);
}

TEST(JsonValues, IdleDirectionHasZeroRuntimeAndRates) {
  const nlohmann::json doc = render_json(test::make_run({test::make_job("a", 1000, 0)}), false);
  const nlohmann::json& write = first_job(doc).at("write");
  EXPECT_EQ(write.at("runtime").get<std::uint64_t>(), 0u);
  EXPECT_EQ(write.at("bw").get<std::uint64_t>(), 0u);
  EXPECT_TRUE(write.at("iops").is_number_float());
  EXPECT_FALSE(write.at("clat_ns").contains("percentile"));
}

TEST(JsonValues, PercentilesEqualTheHistogramsOwn) {
  const JobResult job = test::make_job("a", 1000, 0);
  const nlohmann::json doc = render_json(test::make_run({job}), false);
  const nlohmann::json& pct = first_job(doc).at("read").at("clat_ns").at("percentile");
  EXPECT_EQ(pct.at("50.000000").get<std::uint64_t>(), job.dirs[0].clat.histogram.percentile(50));
  EXPECT_EQ(pct.at("99.990000").get<std::uint64_t>(), job.dirs[0].clat.histogram.percentile(99.99));
  EXPECT_EQ(pct.size(), job.settings.percentile_list.size());
}

TEST(JsonValues, PercentileBlocksFollowTheSettings) {
  JobResult job = test::make_job("a", 100, 0);
  job.settings.lat_percentiles = false;
  job.settings.slat_percentiles = false;
  const nlohmann::json doc = render_json(test::make_run({job}), true);
  const nlohmann::json& read = first_job(doc).at("read");
  EXPECT_TRUE(read.at("clat_ns").contains("percentile"));
  EXPECT_TRUE(read.at("clat_ns").contains("bins"));
  EXPECT_FALSE(read.at("lat_ns").contains("percentile"));
  EXPECT_FALSE(read.at("slat_ns").contains("percentile"));
  EXPECT_FALSE(read.at("lat_ns").contains("bins"));
}

TEST(JsonValues, BinsCountEveryIoAtItsBucketValue) {
  const JobResult job = test::make_job("a", 1000, 0);
  const nlohmann::json bins = first_job(render_json(test::make_run({job}), true)).at("read").at("clat_ns").at("bins");
  std::uint64_t total = 0;
  for (const auto& [key, count] : bins.items()) {
    const std::uint64_t value = std::stoull(key);
    EXPECT_EQ(LatencyHistogram::bucket_value(LatencyHistogram::bucket_of(value)), value);
    total += count.get<std::uint64_t>();
  }
  EXPECT_EQ(total, 1000u);
}

TEST(JsonValues, PlainJsonHasNoBins) {
  const nlohmann::json doc = render_json(test::make_run({test::make_job("a", 100, 100)}), false);
  EXPECT_FALSE(first_job(doc).at("read").at("clat_ns").contains("bins"));
}

TEST(JsonValues, LatencyBucketsShareOutAllIosFromClat) {
  // clat 50..149 us: 50..99 us -> "100" (50 of every 100), 100..149 us -> "250". The buckets come from the
  // histogram, whose buckets straddle range edges: a value within 0.8% of an edge may land on either side.
  const nlohmann::json doc = render_json(test::make_run({test::make_job("a", 1000, 1000)}), false);
  const nlohmann::json& us = first_job(doc).at("latency_us");
  EXPECT_NEAR(us.at("100").get<double>(), 50.0, 1.0);
  EXPECT_NEAR(us.at("250").get<double>(), 50.0, 1.0);
  EXPECT_NEAR(us.at("50").get<double>(), 0.0, 1.0);
  EXPECT_DOUBLE_EQ(us.at("20").get<double>(), 0.0);
  double sum = 0;
  for (const char* key : {"latency_ns", "latency_us", "latency_ms"}) {
    for (const auto& [k, v] : first_job(doc).at(key).items()) sum += v.get<double>();
  }
  EXPECT_NEAR(sum, 100.0, 0.01);
}

TEST(JsonValues, RareLatencyShowsAtLeastOneHundredthPercent) {
  JobResult job = test::make_job("a", 100'000, 0);
  job.dirs[0].clat.record(5'000'000'000ull);  // one 5 s outlier
  const nlohmann::json doc = render_json(test::make_run({job}), false);
  EXPECT_DOUBLE_EQ(first_job(doc).at("latency_ms").at(">=2000").get<double>(), 0.01);
}

TEST(JsonValues, IodepthMapsArePercentages) {
  const nlohmann::json doc = render_json(test::make_run({test::make_job("a", 100, 0)}), false);
  EXPECT_DOUBLE_EQ(first_job(doc).at("iodepth_level").at("4").get<double>(), 100.0);
  EXPECT_DOUBLE_EQ(first_job(doc).at("iodepth_submit").at("4").get<double>(), 100.0);
  EXPECT_DOUBLE_EQ(first_job(doc).at("iodepth_complete").at("0").get<double>(), 0.0);
}

TEST(JsonValues, SampleStatsAreInKibPerSecond) {
  const nlohmann::json doc = render_json(test::make_run({test::make_job("a", 1000, 0)}), false);
  const nlohmann::json& read = first_job(doc).at("read");
  EXPECT_EQ(read.at("bw_min").get<std::uint64_t>(), 1800u);  // 450 iops * 4 KiB
  EXPECT_EQ(read.at("bw_max").get<std::uint64_t>(), 2200u);
  EXPECT_DOUBLE_EQ(read.at("bw_mean").get<double>(), 2000.0);
  EXPECT_EQ(read.at("bw_samples").get<std::uint64_t>(), 2u);
  EXPECT_EQ(read.at("iops_min").get<std::uint64_t>(), 450u);
  EXPECT_DOUBLE_EQ(read.at("iops_mean").get<double>(), 500.0);
  EXPECT_DOUBLE_EQ(read.at("bw_agg").get<double>(), 100.0);
}

TEST(JsonValues, CpuIsPercentOfRuntime) {
  const nlohmann::json doc = render_json(test::make_run({test::make_job("a", 10, 0)}), false);
  EXPECT_DOUBLE_EQ(first_job(doc).at("usr_cpu").get<double>(), 5.0);   // 0.1 s of 2 s
  EXPECT_DOUBLE_EQ(first_job(doc).at("sys_cpu").get<double>(), 25.0);  // 0.5 s of 2 s
  EXPECT_EQ(first_job(doc).at("ctx").get<std::uint64_t>(), 1234u);
}

TEST(JsonValues, WithoutGroupReportingEachJobHasAnEntry) {
  const nlohmann::json doc =
      render_json(test::make_run({test::make_job("a", 10, 0), test::make_job("b", 10, 0)}), false);
  ASSERT_EQ(doc.at("jobs").size(), 2u);
  EXPECT_EQ(doc.at("jobs").at(1).at("jobname"), "b");
}

TEST(JsonValues, GroupReportingMergesJobsIntoOneEntry) {
  const RunResult run = test::make_run(
      {test::make_job("a", 1000, 0, 2'000'000'000ull), test::make_job("a", 600, 0, 1'000'000'000ull)}, true);
  const nlohmann::json doc = render_json(run, false);
  ASSERT_EQ(doc.at("jobs").size(), 1u);
  const nlohmann::json& read = first_job(doc).at("read");
  EXPECT_EQ(read.at("total_ios").get<std::uint64_t>(), 1600u);
  EXPECT_EQ(read.at("runtime").get<std::uint64_t>(), 2000u);  // the longest, not the sum
  EXPECT_DOUBLE_EQ(read.at("iops").get<double>(), 800.0);
  EXPECT_EQ(first_job(doc).at("job_runtime").get<std::uint64_t>(), 3000u);  // fio sums job runtimes here
  EXPECT_EQ(doc.at("sluice").at("jobs").size(), 1u);
}

TEST(JsonValues, GroupReportingSamplesAreOfTheGroupsSummedRate) {
  const RunResult run = test::make_run({test::make_job("a", 1000, 0), test::make_job("a", 1000, 0)}, true);
  const nlohmann::json doc = render_json(run, false);
  const nlohmann::json& read = first_job(doc).at("read");
  EXPECT_DOUBLE_EQ(read.at("iops_mean").get<double>(), 1000.0);  // 500 per job per 1 s interval, summed
  EXPECT_EQ(read.at("iops_samples").get<std::uint64_t>(), 2u);   // one per interval
  EXPECT_DOUBLE_EQ(read.at("bw_agg").get<double>(), 100.0);
}

TEST(JsonValues, EmptyResultIsValidJson) {
  const RunResult run;
  const std::string text = render_json_text(run, true);
  const nlohmann::json doc = nlohmann::json::parse(text);
  EXPECT_TRUE(doc.at("jobs").empty());
  EXPECT_FALSE(doc.contains("disk_util"));
  EXPECT_TRUE(doc.at("fio version").get<std::string>().starts_with("sluice-"));
}

// Walks the document and fails on null: nlohmann writes NaN and infinity as null.
void expect_no_null(const nlohmann::json& j, const std::string& path) {
  EXPECT_FALSE(j.is_null()) << path;
  if (j.is_structured()) {
    for (const auto& [k, v] : j.items()) expect_no_null(v, path + "/" + k);
  }
}

TEST(JsonValues, ZeroRuntimeJobHasZerosNotNulls) {
  JobResult job = test::make_job("a", 0, 0, 0);
  job.start_ns = job.end_ns = 0;
  const nlohmann::json doc = nlohmann::json::parse(render_json_text(test::make_run({job}), true));
  expect_no_null(doc, "");
  EXPECT_DOUBLE_EQ(first_job(doc).at("usr_cpu").get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(first_job(doc).at("read").at("iops").get<double>(), 0.0);
}

TEST(JsonValues, IosWithZeroRuntimeHaveZeroRates) {
  const nlohmann::json doc = render_json(test::make_run({test::make_job("a", 10, 10, 0)}), false);
  expect_no_null(doc, "");
  EXPECT_EQ(first_job(doc).at("read").at("bw").get<std::uint64_t>(), 0u);
}

TEST(JsonValues, SluiceSectionCarriesRunFacts) {
  RunResult run = test::make_run({test::make_job("a", 100, 100)});
  run.interrupted = true;
  run.environment = {{"host", "h"}};
  run.extra = {{"capacity", {{"iops", 5}}}};
  Problem w;
  w.severity = Problem::Severity::kWarning;
  w.option = "bs";
  w.message = "odd";
  run.warnings.push_back(w);
  const nlohmann::json s = render_json(run, false).at("sluice");
  EXPECT_EQ(s.at("version"), "0.1.0");
  EXPECT_EQ(s.at("clock_source"), "clock_gettime(CLOCK_MONOTONIC)");
  EXPECT_TRUE(s.at("interrupted").get<bool>());
  EXPECT_EQ(s.at("warnings").at(0).at("option"), "bs");
  EXPECT_EQ(s.at("warnings").at(0).at("where"), "command line");
  EXPECT_EQ(s.at("environment").at("host"), "h");
  EXPECT_EQ(s.at("capacity").at("iops"), 5);
}

TEST(JsonValues, SeriesHasOneSamplePerInterval) {
  const nlohmann::json s = render_json(test::make_run({test::make_job("a", 1000, 500)}), false).at("sluice");
  const nlohmann::json& series = s.at("jobs").at(0).at("series");
  EXPECT_EQ(series.at("interval_ns").get<std::uint64_t>(), 1'000'000'000u);
  ASSERT_EQ(series.at("samples").size(), 2u);
  const nlohmann::json& first = series.at("samples").at(0);
  EXPECT_DOUBLE_EQ(first.at("t_s").get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(first.at("read").at("iops").get<double>(), 500.0);
  EXPECT_DOUBLE_EQ(first.at("read").at("lat_mean_ns").get<double>(), 60'000.0);
  EXPECT_EQ(first.at("write").at("lat_p99_ns").get<std::uint64_t>(), 99'000u);
  EXPECT_FALSE(first.contains("trim"));
}

// The printed text writes the series sample by sample (not as one JSON tree): it must be the same document.
TEST(JsonValues, PrintedTextIsTheSameDocumentWithItsSeries) {
  JobResult odd = test::make_job("\x01sluice-series-1-0", 1000, 500);  // a name like the text's own marker
  RunResult run = test::make_run({test::make_job("a", 1000, 500), odd, test::make_job("c", 0, 0)});
  run.groups[0].jobs[2].series = TimeSeries{};
  const std::string text = render_json_text(run, false);
  EXPECT_EQ(nlohmann::json::parse(text), render_json(run, false));
  EXPECT_EQ(nlohmann::json::parse(text).at("sluice").at("jobs").at(1).at("jobname"), odd.name);
  EXPECT_NE(text.find("\"samples\": []"), std::string::npos);                      // an empty series
  EXPECT_NE(text.find("\n            {\"t_s\":1.0,"), std::string::npos) << text;  // one compact sample a line
  EXPECT_EQ(text.back(), '\n');
}

TEST(JsonValues, TimeIsCtimeLayout) {
  const nlohmann::json doc = render_json(test::make_run({}), false);
  EXPECT_EQ(doc.at("timestamp").get<std::uint64_t>(), 1'795'993'098u);
  EXPECT_EQ(doc.at("timestamp_ms").get<std::uint64_t>(), 1'795'993'098'606u);
  EXPECT_EQ(doc.at("time").get<std::string>().size(), 24u);  // "Sun Nov 29 22:58:18 2026"
}

TEST(JsonValues, DiskUtilEntriesUseFiosNames) {
  const nlohmann::json doc = render_json(test::make_run({}), false);
  const nlohmann::json& disk = doc.at("disk_util").at(0);
  EXPECT_EQ(disk.at("name"), "vda");
  EXPECT_EQ(disk.at("read_ios").get<std::uint64_t>(), 100u);
  EXPECT_DOUBLE_EQ(disk.at("util").get<double>(), 42.5);
}

}  // namespace
}  // namespace sluice
