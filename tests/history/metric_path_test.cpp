// Metric paths against a fio-shaped document, the headline metrics, and the spread arithmetic.
#include "history/metric_path.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/error.h"
#include "history/spread.h"

namespace sluice {
namespace {

nlohmann::json document() {
  return nlohmann::json::parse(R"({
    "jobs": [
      {"jobname": "first",
       "read": {"total_ios": 10, "iops": 1000.0, "bw_bytes": 4096000,
                "lat_ns": {"mean": 2000.0},
                "clat_ns": {"mean": 1500.0, "percentile": {"99.000000": 9000, "99.900000": 12000}}},
       "write": {"total_ios": 0, "iops": 0.0}},
      {"jobname": "second",
       "write": {"total_ios": 5, "iops": 50.0, "bw_bytes": 1, "lat_ns": {"mean": 1, "percentile": {"99.000000": 77}},
                 "clat_ns": {"percentile": {"99.000000": 70}}}}
    ],
    "sluice": {"capacity": {"iops": 123}}
  })");
}

TEST(MetricPath, FieldsPercentilesAndPointers) {
  const nlohmann::json d = document();
  EXPECT_EQ(metric_value(d, "read.iops"), 1000.0);
  EXPECT_EQ(metric_value(d, "read.lat_ns.mean"), 2000.0);
  EXPECT_EQ(metric_value(d, "read.clat_ns.p99"), 9000.0);
  EXPECT_EQ(metric_value(d, "read.clat_ns.p99.9"), 12000.0);
  EXPECT_EQ(metric_value(d, "read.lat_ns.p99"), 9000.0);           // no lat percentiles: clat's
  EXPECT_EQ(metric_value(d, "write.lat_ns.p99", "second"), 77.0);  // lat percentiles when present
  EXPECT_EQ(metric_value(d, "write.iops", "second"), 50.0);
  EXPECT_EQ(metric_value(d, "/sluice/capacity/iops"), 123.0);
  EXPECT_FALSE(metric_value(d, "read.nosuch"));
  EXPECT_FALSE(metric_value(d, "read.clat_ns.p50"));
  EXPECT_FALSE(metric_value(d, "read.iops", "nosuchjob"));
  EXPECT_FALSE(metric_value(d, "/sluice/nothing"));
}

TEST(MetricPath, MalformedPathsNameTheProblem) {
  const nlohmann::json d = document();
  EXPECT_THROW(metric_value(d, ""), UserError);
  EXPECT_THROW(metric_value(d, "reads.iops"), UserError);
  EXPECT_THROW(metric_value(d, "read"), UserError);
  EXPECT_THROW(metric_value(d, "read.clat_ns.p100"), UserError);
  EXPECT_THROW(metric_value(d, "/bad~pointer"), UserError);
}

TEST(MetricPath, HeadlinesOnlyForDirectionsWithIo) {
  const std::vector<HeadlineMetric> h = headline_metrics(document());
  ASSERT_EQ(h.size(), 8u);
  EXPECT_EQ(h[0].job, "first");
  EXPECT_EQ(h[0].path, "read.iops");
  EXPECT_EQ(h[3].path, "read.clat_ns.p99");
  EXPECT_EQ(h[4].job, "second");
  EXPECT_EQ(h[4].path, "write.iops");
}

TEST(Spread, MinMedianMaxAndSampleCv) {
  const Spread s = spread_of({3.0, 1.0, 2.0, 4.0});
  EXPECT_EQ(s.count, 4u);
  EXPECT_DOUBLE_EQ(s.min, 1.0);
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_DOUBLE_EQ(s.max, 4.0);
  EXPECT_NEAR(s.cv, 1.2909944487358056 / 2.5, 1e-12);  // sample stddev of 1..4 over the mean
  EXPECT_DOUBLE_EQ(spread_of({5.0, 9.0, 7.0}).median, 7.0);
  EXPECT_EQ(spread_of({5.0}).cv, 0.0);
  EXPECT_EQ(spread_of({}).count, 0u);
}

}  // namespace
}  // namespace sluice
