// Scaling efficiency of dependent io (randrmw) in the capacity report, on synthetic curves.
#include <gtest/gtest.h>

#include "method/capacity.h"

namespace sluice {
namespace {

CapacityPoint rmw_point(std::uint32_t concurrency, double transactions_per_s) {
  CapacityPoint p;
  p.iodepth = concurrency;
  p.transactions_per_s = transactions_per_s;
  p.iops = 2 * transactions_per_s;
  p.lat_mean_ns = 100000.0 * concurrency;
  p.within_slo = true;
  p.steady = true;
  return p;
}

// Linear up to 4 streams, then 8 streams give only 5x one stream (0.625).
std::vector<CapacityPoint> saturating_curve() {
  return {rmw_point(1, 1000), rmw_point(2, 2000), rmw_point(4, 3800), rmw_point(8, 5000), rmw_point(16, 5200)};
}

CapacityRequest rmw_request() {
  CapacityRequest request;
  JobSpec job;
  job.workload.rw = RwMode::kRandRmw;
  job.target.filenames = {"/tmp/x"};
  request.streams = {job};
  request.slo = std::chrono::milliseconds(10);
  return request;
}

TEST(CapacityScaling, EfficiencyIsRateOverConcurrencyTimesSingleStreamRate) {
  const auto curve = saturating_curve();
  EXPECT_DOUBLE_EQ(scaling_efficiency(curve, curve[0]).value(), 1.0);
  EXPECT_DOUBLE_EQ(scaling_efficiency(curve, curve[2]).value(), 0.95);
  EXPECT_DOUBLE_EQ(scaling_efficiency(curve, curve[3]).value(), 0.625);
}

TEST(CapacityScaling, LimitIsTheFirstConcurrencyBelowTheFloor) {
  const auto limit = scaling_limit(saturating_curve());
  ASSERT_TRUE(limit.has_value());
  EXPECT_EQ(limit->concurrency(), 8u);
}

TEST(CapacityScaling, LinearCurveHasNoLimit) {
  EXPECT_FALSE(scaling_limit({rmw_point(1, 1000), rmw_point(2, 2000), rmw_point(4, 3900)}).has_value());
}

TEST(CapacityScaling, UnknownWithoutConcurrencyOne) {
  const std::vector<CapacityPoint> curve = {rmw_point(2, 2000), rmw_point(4, 2100)};
  EXPECT_FALSE(scaling_efficiency(curve, curve[1]).has_value());
  EXPECT_FALSE(scaling_limit(curve).has_value());
}

// Under MPI the lowest point is one stream on each host: efficiency is relative to it.
TEST(CapacityScaling, WithSeveralHostsTheBaseIsOneStreamPerHost) {
  std::vector<CapacityPoint> curve = saturating_curve();
  for (CapacityPoint& p : curve) p.hosts = 3;
  EXPECT_DOUBLE_EQ(scaling_efficiency(curve, curve[0]).value(), 1.0);
  EXPECT_DOUBLE_EQ(scaling_efficiency(curve, curve[2]).value(), 0.95);
  const auto limit = scaling_limit(curve);
  ASSERT_TRUE(limit.has_value());
  EXPECT_EQ(limit->concurrency(), 24u);
}

TEST(CapacityScaling, TableShowsEfficiencyColumnAndLimitLine) {
  CapacityResult result;
  result.curve = saturating_curve();
  result.answer = result.curve[4];
  const std::string text = render_capacity_table(rmw_request(), result);
  EXPECT_NE(text.find("scaling"), std::string::npos) << text;
  EXPECT_NE(text.find("0.62"), std::string::npos) << text;
  EXPECT_NE(text.find("scaling: below 80% from concurrency 8 (8 x 1)"), std::string::npos) << text;
}

TEST(CapacityScaling, TableSaysWhenScalingHoldsEverywhere) {
  CapacityResult result;
  result.curve = {rmw_point(1, 1000), rmw_point(2, 1990)};
  const std::string text = render_capacity_table(rmw_request(), result);
  EXPECT_NE(text.find("scaling: at least 80% at every measured concurrency"), std::string::npos) << text;
}

TEST(CapacityScaling, JsonHasPerPointEfficiencyAndTheLimit) {
  CapacityResult result;
  result.curve = saturating_curve();
  const nlohmann::json j = capacity_json(rmw_request(), result);
  EXPECT_DOUBLE_EQ(j["curve"][3]["scaling_efficiency"].get<double>(), 0.625);
  EXPECT_EQ(j["scaling"]["below_floor_at"].get<std::uint32_t>(), 8u);
  EXPECT_DOUBLE_EQ(j["scaling"]["floor"].get<double>(), 0.8);
}

TEST(CapacityScaling, JsonScalingIsNullForIndependentIo) {
  CapacityResult result;
  result.curve = {rmw_point(1, 0), rmw_point(2, 0)};
  EXPECT_TRUE(capacity_json(rmw_request(), result)["scaling"].is_null());
}

}  // namespace
}  // namespace sluice
