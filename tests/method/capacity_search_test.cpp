// The capacity search on synthetic devices: no I/O, the measurements come from a formula.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "common/error.h"
#include "method/capacity.h"

namespace sluice {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// A device: IOPS as a function of concurrency; mean latency by Little's law (c / IOPS); percentiles as
// multiples of the mean. Each point costs `point_cost` of the budget (or its whole share when never steady).
struct Model {
  std::function<double(double)> iops;
  double p99_factor = 3.0;
  double point_cost_s = 2.0;
  bool steady = true;
  std::vector<std::uint32_t> asked;  // concurrencies measured, in order
  double time_given_s = 0;

  MeasurePoint measure() {
    return [this](std::uint32_t iodepth, std::uint32_t numjobs, std::chrono::nanoseconds share) {
      CapacityPoint p;
      p.iodepth = iodepth;
      p.numjobs = numjobs;
      const double c = static_cast<double>(iodepth * numjobs);
      p.iops = iops(c);
      p.lat_mean_ns = c / p.iops * 1e9;
      p.lat_p50_ns = static_cast<std::uint64_t>(p.lat_mean_ns);
      p.lat_p95_ns = static_cast<std::uint64_t>(p.lat_mean_ns * 2);
      p.lat_p99_ns = static_cast<std::uint64_t>(p.lat_mean_ns * p99_factor);
      p.lat_p999_ns = static_cast<std::uint64_t>(p.lat_mean_ns * p99_factor * 2);
      const double share_s = std::chrono::duration<double>(share).count();
      p.runtime_s = steady ? std::min(point_cost_s, share_s) : share_s;
      p.steady = steady;
      asked.push_back(iodepth * numjobs);
      time_given_s += p.runtime_s;
      return std::optional<CapacityPoint>(p);
    };
  }
};

// IOPS = c * k / (1 + c / c0): always growing, latency (1 + c / c0) / k always growing.
Model saturating(double k = 10000, double c0 = 10) {
  Model m;
  m.iops = [k, c0](double c) { return c * k / (1 + c / c0); };
  return m;
}

// IOPS = min(c * k, cap): flat beyond cap / k.
Model capped(double k, double cap) {
  Model m;
  m.iops = [k, cap](double c) { return std::min(c * k, cap); };
  return m;
}

CapacityRequest request_with(std::chrono::nanoseconds slo, SloStat stat = SloStat::kMean) {
  CapacityRequest r;
  r.slo = slo;
  r.slo_stat = stat;
  r.budget = seconds(120);
  r.ramp_time = milliseconds(500);
  r.sample_interval = milliseconds(250);
  return r;
}

// Under MPI each of `hosts` ranks runs iodepth x numjobs: the search varies one host's concurrency (so it asks
// for the same per-host points as on one host) and the points count every host's streams.
TEST(CapacitySearch, WithSeveralHostsThePerHostConcurrencyIsSearchedAndPointsCountEveryHost) {
  Model one = saturating();
  const CapacityResult single = search_capacity(request_with(milliseconds(1)), one.measure());
  Model three = saturating();
  CapacityRequest request = request_with(milliseconds(1));
  request.hosts = 3;
  const CapacityResult r = search_capacity(request, three.measure());
  EXPECT_EQ(three.asked, one.asked);
  ASSERT_TRUE(r.answer.has_value());
  ASSERT_TRUE(single.answer.has_value());
  EXPECT_EQ(r.answer->hosts, 3u);
  EXPECT_EQ(r.answer->per_host_concurrency(), single.answer->concurrency());
  EXPECT_EQ(r.answer->concurrency(), 3 * single.answer->concurrency());
  for (const CapacityPoint& p : r.curve) EXPECT_EQ(p.concurrency(), 3 * p.iodepth * p.numjobs);
  EXPECT_NE(r.stop_reason.find(std::to_string(3 * r.curve.back().per_host_concurrency())), std::string::npos)
      << r.stop_reason;
}

TEST(CapacitySearch, AnswerIsTheHighestConcurrencyWithinTheLimitToBisectionPrecision) {
  Model m = saturating();  // mean lat (1 + c/10) / 10000 s <= 1 ms  <=>  c <= 90
  const CapacityResult r = search_capacity(request_with(milliseconds(1)), m.measure());
  ASSERT_TRUE(r.answer.has_value());
  EXPECT_LE(r.answer->concurrency(), 90u);
  EXPECT_GE(r.answer->concurrency(), 81u);  // within 10% of the boundary
  EXPECT_LE(r.answer->lat_mean_ns, 1e6);
  EXPECT_TRUE(r.answer->within_slo);
}

TEST(CapacitySearch, FinerPrecisionFindsTheExactBoundary) {
  Model m = saturating();
  CapacityRequest req = request_with(milliseconds(1));
  req.bisection_precision = 0.001;
  const CapacityResult r = search_capacity(req, m.measure());
  ASSERT_TRUE(r.answer.has_value());
  EXPECT_EQ(r.answer->concurrency(), 90u);
}

TEST(CapacitySearch, RampDoublesUntilTheLimitThenBisects) {
  Model m = saturating();
  search_capacity(request_with(milliseconds(1)), m.measure());
  ASSERT_GE(m.asked.size(), 9u);
  const std::vector<std::uint32_t> ramp(m.asked.begin(), m.asked.begin() + 8);
  EXPECT_EQ(ramp, (std::vector<std::uint32_t>{1, 2, 4, 8, 16, 32, 64, 128}));
  for (std::size_t i = 8; i < m.asked.size(); ++i) {
    EXPECT_GT(m.asked[i], 64u);
    EXPECT_LT(m.asked[i], 128u);
  }
}

TEST(CapacitySearch, CurveIsSortedByConcurrency) {
  Model m = saturating();
  const CapacityResult r = search_capacity(request_with(milliseconds(1)), m.measure());
  EXPECT_TRUE(std::is_sorted(r.curve.begin(), r.curve.end(), [](const CapacityPoint& a, const CapacityPoint& b) {
    return a.concurrency() < b.concurrency();
  }));
  EXPECT_EQ(r.curve.size(), m.asked.size());
}

TEST(CapacitySearch, KneeIsWhereDoublingStopsAddingIops) {
  Model m = capped(10000, 80000);  // IOPS flat from concurrency 8 on, latency grows
  const CapacityResult r = search_capacity(request_with(seconds(1)), m.measure());
  ASSERT_TRUE(r.knee.has_value());
  EXPECT_EQ(r.knee->concurrency(), 8u);
  EXPECT_FALSE(r.thrashing.has_value());
}

TEST(CapacitySearch, PlateauEndsTheRampWithoutReachingTheLimit) {
  Model m = capped(10000, 80000);
  const CapacityResult r = search_capacity(request_with(seconds(1)), m.measure());
  EXPECT_EQ(m.asked.back(), 32u);  // 16 and 32 each added nothing
  EXPECT_NE(r.stop_reason.find("stopped growing"), std::string::npos) << r.stop_reason;
  ASSERT_TRUE(r.answer.has_value());
  EXPECT_DOUBLE_EQ(r.answer->iops, 80000);
  EXPECT_EQ(r.answer->concurrency(), 8u);  // ties go to the lowest concurrency
}

TEST(CapacitySearch, ThrashingIsWhereMoreConcurrencyLosesIops) {
  Model m;
  m.iops = [](double c) { return c <= 16 ? c * 10000 : 160000 * 16 / c; };
  const CapacityResult r = search_capacity(request_with(seconds(1)), m.measure());
  ASSERT_TRUE(r.thrashing.has_value());
  EXPECT_EQ(r.thrashing->concurrency(), 32u);
  ASSERT_TRUE(r.answer.has_value());
  EXPECT_EQ(r.answer->concurrency(), 16u);
  EXPECT_NE(r.stop_reason.find("thrashing"), std::string::npos) << r.stop_reason;
}

TEST(CapacitySearch, NoAnswerWhenConcurrencyOneExceedsTheLimit) {
  Model m = saturating();  // concurrency 1: 110 us
  const CapacityResult r = search_capacity(request_with(std::chrono::microseconds(50)), m.measure());
  EXPECT_FALSE(r.answer.has_value());
  EXPECT_EQ(r.curve.size(), 1u);
}

TEST(CapacitySearch, P99LimitGivesALowerAnswerThanTheSameMeanLimit) {
  Model mean_model = saturating();
  Model p99_model = saturating();  // p99 = 3 x mean: p99 <= 1 ms  <=>  c <= 23.3
  const CapacityResult by_mean = search_capacity(request_with(milliseconds(1)), mean_model.measure());
  const CapacityResult by_p99 = search_capacity(request_with(milliseconds(1), SloStat::kP99), p99_model.measure());
  ASSERT_TRUE(by_p99.answer.has_value());
  EXPECT_LE(by_p99.answer->concurrency(), 23u);
  EXPECT_GE(by_p99.answer->concurrency(), 20u);
  EXPECT_LT(by_p99.answer->concurrency(), by_mean.answer->concurrency());
  EXPECT_LE(by_p99.answer->lat_p99_ns, 1000000u);
}

TEST(CapacitySearch, BudgetIsRespectedWhenPointsNeverSettle) {
  Model m = saturating();
  m.steady = false;  // every point uses its whole share
  CapacityRequest req = request_with(milliseconds(1));
  req.budget = seconds(30);
  const CapacityResult r = search_capacity(req, m.measure());
  EXPECT_LE(m.time_given_s, 30.0 + 1e-6);
  EXPECT_LE(r.elapsed_s, 30.0 + 1e-6);
  ASSERT_TRUE(r.answer.has_value());  // shares shrink as the budget goes: the search still completes
  EXPECT_GE(r.answer->concurrency(), 81u);
}

TEST(CapacitySearch, TooSmallABudgetEndsTheSearchEarlyAndSaysSo) {
  Model m = saturating();
  m.steady = false;
  CapacityRequest req = request_with(milliseconds(1));
  req.budget = seconds(12);  // room for 6 points of at least 2 s; the search needs 11
  const CapacityResult r = search_capacity(req, m.measure());
  EXPECT_LE(m.time_given_s, 12.0 + 1e-6);
  EXPECT_TRUE(r.budget_exhausted);
  EXPECT_NE(r.stop_reason.find("budget"), std::string::npos) << r.stop_reason;
  EXPECT_FALSE(r.curve.empty());
}

TEST(CapacitySearch, SteadyPointsFinishWellInsideTheBudget) {
  Model m = saturating();
  const CapacityResult r = search_capacity(request_with(milliseconds(1)), m.measure());
  EXPECT_FALSE(r.budget_exhausted);
  EXPECT_NEAR(r.elapsed_s, 2.0 * static_cast<double>(r.curve.size()), 1e-6);
}

TEST(CapacitySearch, StopBeforeAPointKeepsWhatWasMeasured) {
  Model m = saturating();
  MeasurePoint inner = m.measure();
  int calls = 0;
  MeasurePoint stopping = [&](std::uint32_t d, std::uint32_t j, std::chrono::nanoseconds s) {
    return ++calls > 3 ? std::nullopt : inner(d, j, s);
  };
  const CapacityResult r = search_capacity(request_with(milliseconds(1)), stopping);
  EXPECT_TRUE(r.interrupted);
  EXPECT_EQ(r.curve.size(), 3u);
  ASSERT_TRUE(r.answer.has_value());
  EXPECT_EQ(r.answer->concurrency(), 4u);
}

TEST(CapacitySearch, NumjobsScaleVariesJobsNotDepth) {
  Model m = saturating();
  CapacityRequest req = request_with(milliseconds(1));
  req.scale = ConcurrencyScale::kNumjobs;
  const CapacityResult r = search_capacity(req, m.measure());
  for (const CapacityPoint& p : r.curve) EXPECT_EQ(p.iodepth, 1u);
  EXPECT_GT(r.curve.back().numjobs, 1u);
}

TEST(CapacitySearch, MaxConcurrencyBoundsTheRamp) {
  Model m = saturating(10000, 1e9);  // latency hardly grows: the limit is never reached
  CapacityRequest req = request_with(seconds(1));
  req.max_concurrency = 16;
  const CapacityResult r = search_capacity(req, m.measure());
  EXPECT_EQ(m.asked.back(), 16u);
  EXPECT_NE(r.stop_reason.find("maximum concurrency"), std::string::npos) << r.stop_reason;
}

TEST(CapacitySearch, RejectsANonPositiveLimit) {
  Model m = saturating();
  EXPECT_THROW(search_capacity(request_with(std::chrono::nanoseconds(0)), m.measure()), UserError);
}

TEST(SplitConcurrency, BothScalesJobsBySquareRoot) {
  EXPECT_EQ(split_concurrency(1, ConcurrencyScale::kBoth), std::make_pair(1u, 1u));
  EXPECT_EQ(split_concurrency(4, ConcurrencyScale::kBoth), std::make_pair(2u, 2u));
  EXPECT_EQ(split_concurrency(8, ConcurrencyScale::kBoth), std::make_pair(4u, 2u));
  EXPECT_EQ(split_concurrency(64, ConcurrencyScale::kBoth), std::make_pair(8u, 8u));
  EXPECT_EQ(split_concurrency(64, ConcurrencyScale::kIodepth), std::make_pair(64u, 1u));
  EXPECT_EQ(split_concurrency(64, ConcurrencyScale::kNumjobs), std::make_pair(1u, 64u));
}

TEST(SloStat, ValueSelectsTheNamedStatistic) {
  CapacityPoint p;
  p.lat_mean_ns = 1000.4;
  p.lat_p50_ns = 900;
  p.lat_p95_ns = 1500;
  p.lat_p99_ns = 2000;
  p.lat_p999_ns = 5000;
  EXPECT_EQ(slo_stat_value(p, SloStat::kMean), 1000u);
  EXPECT_EQ(slo_stat_value(p, SloStat::kP50), 900u);
  EXPECT_EQ(slo_stat_value(p, SloStat::kP95), 1500u);
  EXPECT_EQ(slo_stat_value(p, SloStat::kP99), 2000u);
  EXPECT_EQ(slo_stat_value(p, SloStat::kP999), 5000u);
}

TEST(SloStat, ParseNamesTheValidValues) {
  EXPECT_EQ(parse_slo_stat("p99.9"), SloStat::kP999);
  try {
    parse_slo_stat("p98");
    FAIL() << "no error";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("--slo-stat=p98"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("mean, p50, p95, p99, p99.9"), std::string::npos);
  }
}

TEST(SloStat, ScaleParseRejectsUnknownValues) {
  EXPECT_EQ(parse_scale("both"), ConcurrencyScale::kBoth);
  EXPECT_THROW(parse_scale("threads"), UserError);
}

}  // namespace
}  // namespace sluice
