// --interval-log and --metrics-file on a real run: each interval line's percentiles agree with a histogram
// built from the same run's per-io latency log (write_lat_log) over the same interval, and the metrics file
// is OpenMetrics whose totals are the report's.
//
// Tolerance: the latency log stamps each io in whole milliseconds since the job's start, the interval log
// gives its bounds in nanoseconds. An io stamped in the millisecond of a bound may fall on either side, so the
// check is the one that holds for every split of those ios: with S the ios surely inside and A those of the
// two bounds' milliseconds, the interval's io count n lies in [|S|, |S|+|A|], and a reported percentile p in
// bucket b means that fewer than rank = ceil(p/100 * n) ios of S are below b and at least rank of S and A are
// at or below it. At 2,000 ios/s a bound's millisecond holds about 2 ios against 2,000 in the interval.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "stats/latency_histogram.h"
#include "support/it_test_util.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

using json = nlohmann::json;

struct LoggedIo {
  std::uint64_t ms = 0;
  std::uint64_t lat_ns = 0;
};

// The reads of a fio-format latency log: "time_ms, value_ns, ddir, bs, ...".
std::vector<LoggedIo> reads_in_lat_log(const std::string& path) {
  std::vector<LoggedIo> ios;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::uint64_t ms = 0;
    std::uint64_t ns = 0;
    int ddir = -1;
    char comma = 0;
    if (fields >> ms >> comma >> ns >> comma >> ddir && ddir == 0) ios.push_back({ms, ns});
  }
  return ios;
}

std::string lat_log_in(const std::string& dir) {
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("io_lat.", 0) == 0) return entry.path().string();
  }
  return "";
}

TEST(IntervalLog, PercentilesMatchTheLatencyLogOfTheSameInterval) {
  TempDir dir;
  const std::string interval_log = dir.file("intervals.jsonl");
  const std::string metrics = dir.file("sluice.prom");
  const RunOutput r =
      run_binary({"run", "--output-format=json", "--interval-log=" + interval_log, "--metrics-file=" + metrics,
                  "--name=io", "--filename=" + dir.file("data"), "--size=16m", "--rw=randread", "--ioengine=psync",
                  "--time_based", "--runtime=3", "--rate_iops=2000", "--write_lat_log=" + dir.file("io")});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto report = parse_document(r.out);
  ASSERT_TRUE(report);
  const std::string lat_log = lat_log_in(dir.path());
  ASSERT_FALSE(lat_log.empty()) << "no latency log in " << dir.path();
  const std::vector<LoggedIo> logged = reads_in_lat_log(lat_log);
  ASSERT_GT(logged.size(), 1000u);

  std::ifstream in(interval_log);
  std::string line;
  std::uint64_t total = 0;
  std::size_t intervals = 0;
  while (std::getline(in, line)) {
    const json interval = json::parse(line);
    ++intervals;
    const std::uint64_t start_ns = interval["start_ns"];
    const std::uint64_t end_ns = interval["end_ns"];
    const std::uint64_t n = interval["read"]["ios"];
    total += n;
    const std::uint64_t start_ms = start_ns / 1'000'000;
    const std::uint64_t end_ms = end_ns / 1'000'000;
    std::vector<std::uint64_t> sure;
    std::vector<std::uint64_t> border;
    for (const LoggedIo& io : logged) {
      const bool at_start = start_ns != 0 && io.ms == start_ms;
      if (io.ms == end_ms || at_start) {
        border.push_back(io.lat_ns);
      } else if ((start_ns == 0 || io.ms > start_ms) && io.ms < end_ms) {
        sure.push_back(io.lat_ns);
      }
    }
    ASSERT_GE(n, sure.size()) << line;
    ASSERT_LE(n, sure.size() + border.size()) << line;
    for (const char* key : {"p50", "p90", "p99", "p99.9"}) {
      const double p = std::stod(std::string(key + 1));
      const int bucket = LatencyHistogram::bucket_of(interval["read"]["lat_ns"][key].get<std::uint64_t>());
      const auto rank = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::ceil(p / 100.0 * double(n))));
      std::uint64_t surely_below = 0;
      std::uint64_t at_most = 0;
      for (std::uint64_t ns : sure) {
        surely_below += LatencyHistogram::bucket_of(ns) < bucket;
        at_most += LatencyHistogram::bucket_of(ns) <= bucket;
      }
      for (std::uint64_t ns : border) at_most += LatencyHistogram::bucket_of(ns) <= bucket;
      EXPECT_LT(surely_below, rank) << key << " of " << line;
      EXPECT_GE(at_most, rank) << key << " of " << line;
    }
  }
  EXPECT_GE(intervals, 3u);  // 1 s intervals of a 3 s run, the last one partial
  EXPECT_EQ(total, total_ios((*report)["jobs"][0], "read"));

  std::ifstream prom(metrics);
  const std::string text((std::istreambuf_iterator<char>(prom)), std::istreambuf_iterator<char>());
  ASSERT_GE(text.size(), 6u);
  EXPECT_EQ(text.substr(text.size() - 6), "# EOF\n");
  EXPECT_NE(text.find("sluice_io_total{job=\"io\",jobnum=\"0\",groupid=\"0\",direction=\"read\"} " +
                      std::to_string(total) + "\n"),
            std::string::npos)
      << text;
  EXPECT_FALSE(std::filesystem::exists(metrics + ".tmp"));
}

// The metrics file through Prometheus's own OpenMetrics parser (Debian's python3-prometheus-client), when
// installed: every family sluice writes is read back with its type and unit.
TEST(IntervalLog, MetricsFileParsesWithPrometheusClient) {
  RunOptions python;
  python.program = "/usr/bin/python3";
  if (run_binary({"-c", "import prometheus_client.openmetrics.parser"}, python).exit_code != 0) {
    GTEST_SKIP() << "python3-prometheus-client is not installed: the reference parser check is skipped";
  }
  TempDir dir;
  const std::string metrics = dir.file("sluice.prom");
  const RunOutput r = run_binary({"run", "--output-format=json", "--metrics-file=" + metrics, "--name=m",
                                  "--ioengine=null", "--size=1g", "--rw=randrw", "--time_based", "--runtime=1500ms"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const RunOutput parsed =
      run_binary({"-c",
                  "import sys\n"
                  "from prometheus_client.openmetrics.parser import text_string_to_metric_families as parse\n"
                  "for f in parse(open(sys.argv[1]).read()):\n"
                  "    print(f.name, f.type, f.unit, len(f.samples))\n",
                  metrics},
                 python);
  ASSERT_EQ(parsed.exit_code, 0) << describe(parsed);
  EXPECT_NE(parsed.out.find("sluice_io counter  2\n"), std::string::npos) << parsed.out;  // read and write
  EXPECT_NE(parsed.out.find("sluice_io_bytes counter bytes 2\n"), std::string::npos) << parsed.out;
  EXPECT_NE(parsed.out.find("sluice_interval_latency_seconds gauge seconds 8\n"), std::string::npos) << parsed.out;
}

}  // namespace
}  // namespace sluice::testing
