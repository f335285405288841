// Per-interval results from cumulative snapshots (report/interval_log.h): each interval's ios, bytes and
// percentiles are those of the ios of that interval alone, and the metrics file is well-formed OpenMetrics.
#include "report/interval_log.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace sluice {
namespace {

// A run of one job, as a snapshot shows it after the reads in `latencies_ns` (4 KiB each) over `runtime_ns`.
struct Snapshots {
  JobResult job;
  RunResult progress(std::uint64_t runtime_ns) {
    job.runtime_ns = runtime_ns;
    RunResult run;
    run.groups.push_back(GroupResult{0, false, {job}});
    return run;
  }
  void read(const std::vector<std::uint64_t>& latencies_ns) {
    DirectionStats& dir = job.dirs[index_of(Direction::kRead)];
    for (std::uint64_t ns : latencies_ns) {
      dir.ios++;
      dir.bytes += 4096;
      dir.lat.record(ns);
    }
  }
};

TEST(IntervalLog, EachIntervalHasOnlyItsOwnIosAndPercentiles) {
  Snapshots s;
  s.job.name = "j";
  IntervalTracker tracker;
  std::vector<std::uint64_t> first;
  for (std::uint64_t i = 1; i <= 100; ++i) first.push_back(i * 1000);  // 1..100 us
  s.read(first);
  const auto one = tracker.advance(s.progress(1'000'000'000));
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].start_ns, 0u);
  EXPECT_EQ(one[0].end_ns, 1'000'000'000u);
  EXPECT_EQ(one[0].dirs[index_of(Direction::kRead)].ios, 100u);
  std::vector<std::uint64_t> second(50, 5'000'000);  // 50 ios of 5 ms: nothing of the first interval
  s.read(second);
  const auto two = tracker.advance(s.progress(2'000'000'000));
  ASSERT_EQ(two.size(), 1u);
  const IntervalDirection& read = two[0].dirs[index_of(Direction::kRead)];
  EXPECT_EQ(two[0].start_ns, 1'000'000'000u);
  EXPECT_EQ(read.ios, 50u);
  EXPECT_EQ(read.bytes, 50u * 4096);
  LatencyHistogram expected;
  for (std::uint64_t ns : second) expected.record(ns);
  for (double p : interval_percentiles()) EXPECT_EQ(read.lat.percentile(p), expected.percentile(p)) << "p" << p;
  EXPECT_EQ(two[0].total_ios[index_of(Direction::kRead)], 150u);
  // A snapshot that did not move gives no interval.
  EXPECT_TRUE(tracker.advance(s.progress(2'000'000'000)).empty());
}

TEST(IntervalLog, LineIsOneJsonObjectWithTheIntervalsNumbers) {
  Snapshots s;
  s.job.name = "j";
  s.read({10'000, 20'000, 30'000, 40'000});
  IntervalTracker tracker;
  const auto intervals = tracker.advance(s.progress(500'000'000));
  ASSERT_EQ(intervals.size(), 1u);
  const std::string line = interval_line(intervals[0]);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  const auto doc = nlohmann::json::parse(line);
  EXPECT_EQ(doc["job"], "j");
  EXPECT_EQ(doc["end_ms"], 500);
  EXPECT_EQ(doc["read"]["ios"], 4);
  EXPECT_DOUBLE_EQ(doc["read"]["iops"].get<double>(), 8.0);
  EXPECT_EQ(doc["read"]["lat_ns"]["p50"], intervals[0].dirs[0].lat.percentile(50));
  EXPECT_FALSE(doc.contains("write"));  // a direction the job does not do
}

// The OpenMetrics text format's rules that the textfile collector and Prometheus's parser enforce: every
// sample belongs to a family declared by "# TYPE" before it, counters' samples end in _total, a family with a
// unit ends in it, label values are quoted, values are numbers, and the text ends with "# EOF".
void expect_openmetrics(const std::string& text) {
  std::istringstream in(text);
  std::set<std::string> families;
  std::string counter;
  std::string line;
  std::string last;
  const std::regex type_line(R"(# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|summary|histogram|unknown))");
  const std::regex unit_line(R"(# UNIT ([a-zA-Z_:][a-zA-Z0-9_:]*) ([a-z]+))");
  const std::regex help_line(R"(# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) .*)");
  const std::string label = R"([a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*")";
  const std::string value = R"((-?[0-9.e+-]+|NaN|\+Inf|-Inf))";
  const std::regex sample(R"(([a-zA-Z_:][a-zA-Z0-9_:]*)\{)" + label + "(," + label + R"()*\} )" + value);
  std::string family;
  std::string type;
  while (std::getline(in, line)) {
    last = line;
    std::smatch m;
    if (line == "# EOF") continue;
    if (std::regex_match(line, m, type_line)) {
      family = m[1];
      type = m[2];
      EXPECT_TRUE(families.insert(family).second) << "family declared twice: " << family;
    } else if (std::regex_match(line, m, unit_line)) {
      EXPECT_EQ(m[1], family);
      const std::string suffix = "_" + m[2].str();
      const bool ends_in_unit =
          family.size() > suffix.size() && family.compare(family.size() - suffix.size(), suffix.size(), suffix) == 0;
      EXPECT_TRUE(ends_in_unit) << family << " does not end in its unit";
    } else if (std::regex_match(line, m, help_line)) {
      EXPECT_EQ(m[1], family);
    } else if (std::regex_match(line, m, sample)) {
      const std::string name = m[1];
      EXPECT_EQ(name, type == "counter" ? family + "_total" : family) << line;
    } else {
      ADD_FAILURE() << "not an OpenMetrics line: " << line;
    }
  }
  EXPECT_EQ(last, "# EOF");
  EXPECT_EQ(text.back(), '\n');
}

TEST(IntervalLog, MetricsFileIsOpenMetrics) {
  Snapshots s;
  s.job.name = "with \"quotes\"";
  s.job.jobnum = 1;
  s.read({1000, 2000, 3000});
  IntervalTracker tracker;
  const std::string text = render_openmetrics(tracker.advance(s.progress(1'000'000'000)));
  expect_openmetrics(text);
  EXPECT_NE(text.find(R"(sluice_io_total{job="with \"quotes\"",jobnum="1",groupid="0",direction="read"} 3)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find(R"(percentile="99")"), std::string::npos) << text;
  expect_openmetrics(render_openmetrics({}));  // before any interval: only the declarations
}

}  // namespace
}  // namespace sluice
