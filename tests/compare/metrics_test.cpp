#include "compare/metrics.h"

#include <gtest/gtest.h>

namespace sluice {
namespace {

const Metric* find(const std::vector<Metric>& metrics, const std::string& key) {
  for (const Metric& m : metrics) {
    if (metric_key(m) == key) return &m;
  }
  return nullptr;
}

TEST(Metrics, ReadsEachDirectionWithIo) {
  const nlohmann::json doc = nlohmann::json::parse(R"({"jobs": [{"jobname": "j",
    "read": {"total_ios": 10, "iops": 1000.5, "bw_bytes": 4096000, "lat_ns": {"mean": 900.0},
             "clat_ns": {"percentile": {"50.000000": 800, "99.000000": 2000, "99.900000": 5000}}},
    "write": {"total_ios": 0, "iops": 0, "bw_bytes": 0}}]})");
  const std::vector<Metric> m = extract_metrics(doc);
  ASSERT_EQ(m.size(), 6u);
  EXPECT_DOUBLE_EQ(find(m, "j/read/iops")->value, 1000.5);
  EXPECT_TRUE(find(m, "j/read/iops")->higher_is_better);
  EXPECT_DOUBLE_EQ(find(m, "j/read/bw")->value, 4096000);
  EXPECT_DOUBLE_EQ(find(m, "j/read/mean")->value, 900);
  EXPECT_FALSE(find(m, "j/read/p99")->higher_is_better);
  EXPECT_DOUBLE_EQ(find(m, "j/read/p99.9")->value, 5000);
  EXPECT_EQ(find(m, "j/write/iops"), nullptr);
}

TEST(Metrics, PrefersTotalLatencyPercentiles) {
  const nlohmann::json doc = nlohmann::json::parse(R"({"jobs": [{"jobname": "j",
    "read": {"total_ios": 1, "lat_ns": {"mean": 1, "percentile": {"99.000000": 70}},
             "clat_ns": {"percentile": {"99.000000": 60}}}}]})");
  EXPECT_DOUBLE_EQ(find(extract_metrics(doc), "j/read/p99")->value, 70);
}

TEST(Metrics, RepeatedJobNamesStayApart) {
  const nlohmann::json doc = nlohmann::json::parse(R"({"jobs": [{"jobname": "j", "read": {"total_ios": 1, "iops": 1}},
    {"jobname": "j", "read": {"total_ios": 1, "iops": 2}}]})");
  EXPECT_DOUBLE_EQ(find(extract_metrics(doc), "j #2/read/iops")->value, 2);
}

TEST(Metrics, CapacityAnswerAndKnee) {
  const nlohmann::json doc = nlohmann::json::parse(R"({"jobs": [], "sluice": {"capacity": {"iops": 5000.0,
    "knee": {"iops": 4000.0, "concurrency": 8}}}})");
  const std::vector<Metric> m = extract_metrics(doc);
  EXPECT_DOUBLE_EQ(find(m, "capacity//capacity")->value, 5000);
  EXPECT_DOUBLE_EQ(find(m, "capacity//knee")->value, 4000);
  const nlohmann::json none =
      nlohmann::json::parse(R"({"jobs": [], "sluice": {"capacity": {"iops": null, "knee": null}}})");
  EXPECT_TRUE(extract_metrics(none).empty());
}

TEST(Metrics, InterferenceSlowdownPerThreadCount) {
  const nlohmann::json doc = nlohmann::json::parse(R"({"jobs": [], "sluice": {"interference": {"phases": [
    {"name": "idle", "threads": 1, "iops": 300.0}, {"name": "loaded", "threads": 1, "iops": 100.0},
    {"name": "idle", "threads": 4, "iops": 800.0}, {"name": "loaded", "threads": 4, "iops": 400.0}]}}})");
  const std::vector<Metric> m = extract_metrics(doc);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_DOUBLE_EQ(find(m, "interference 1 threads//slowdown")->value, 3.0);
  EXPECT_DOUBLE_EQ(find(m, "interference 4 threads//slowdown")->value, 2.0);
  EXPECT_FALSE(m[0].higher_is_better);
}

}  // namespace
}  // namespace sluice
