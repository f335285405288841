#include "stats/moments.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <random>
#include <vector>

namespace sluice {
namespace {

struct TwoPass {
  double mean = 0, variance = 0;
};

TwoPass two_pass(const std::vector<double>& xs) {
  TwoPass r;
  for (double x : xs) r.mean += x;
  r.mean /= static_cast<double>(xs.size());
  for (double x : xs) r.variance += (x - r.mean) * (x - r.mean);
  r.variance /= static_cast<double>(xs.size() - 1);
  return r;
}

std::vector<double> samples(std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> dist(1e9, 1e3);  // large offset: naive sum-of-squares would lose digits
  std::vector<double> xs(n);
  for (auto& x : xs) x = dist(rng);
  return xs;
}

TEST(Moments, EmptyReportsZeros) {
  Moments m;
  EXPECT_EQ(m.count(), 0u);
  EXPECT_EQ(m.min(), 0.0);
  EXPECT_EQ(m.max(), 0.0);
  EXPECT_EQ(m.mean(), 0.0);
  EXPECT_EQ(m.variance(), 0.0);
}

TEST(Moments, SingleValueHasZeroVariance) {
  Moments m;
  m.add(42);
  EXPECT_EQ(m.mean(), 42.0);
  EXPECT_EQ(m.variance(), 0.0);
  EXPECT_EQ(m.min(), 42.0);
  EXPECT_EQ(m.max(), 42.0);
}

TEST(Moments, MatchesTwoPassComputation) {
  const auto xs = samples(100'000, 7);
  Moments m;
  for (double x : xs) m.add(x);
  const TwoPass ref = two_pass(xs);
  EXPECT_NEAR(m.mean(), ref.mean, ref.mean * 1e-12);
  EXPECT_NEAR(m.variance(), ref.variance, ref.variance * 1e-9);
  EXPECT_NEAR(m.stddev(), std::sqrt(ref.variance), std::sqrt(ref.variance) * 1e-9);
  EXPECT_EQ(m.min(), *std::min_element(xs.begin(), xs.end()));
  EXPECT_EQ(m.max(), *std::max_element(xs.begin(), xs.end()));
}

TEST(Moments, MergeOfPartitionsEqualsAllAtOnce) {
  const auto xs = samples(30'000, 8);
  Moments all;
  for (double x : xs) all.add(x);
  Moments parts[4];
  for (std::size_t i = 0; i < xs.size(); ++i) parts[(i * i) % 4].add(xs[i]);  // uneven partitions
  Moments merged;
  for (const auto& p : parts) merged.merge(p);
  EXPECT_EQ(merged.count(), all.count());
  EXPECT_NEAR(merged.mean(), all.mean(), all.mean() * 1e-12);
  EXPECT_NEAR(merged.variance(), all.variance(), all.variance() * 1e-9);
  EXPECT_EQ(merged.min(), all.min());
  EXPECT_EQ(merged.max(), all.max());
}

TEST(Moments, MergeWithEmptyIsIdentity) {
  Moments m;
  m.add(1);
  m.add(3);
  Moments empty;
  m.merge(empty);
  EXPECT_EQ(m.count(), 2u);
  empty.merge(m);
  EXPECT_EQ(empty.mean(), 2.0);
  EXPECT_EQ(empty.variance(), 2.0);
}

TEST(Moments, JsonRoundTripIsExact) {
  Moments m;
  for (double x : samples(1000, 9)) m.add(x);
  const Moments back = Moments::from_json(nlohmann::json::parse(m.to_json().dump()));
  EXPECT_EQ(back.count(), m.count());
  EXPECT_EQ(back.mean(), m.mean());
  EXPECT_EQ(back.variance(), m.variance());
  EXPECT_EQ(back.min(), m.min());
  EXPECT_EQ(back.max(), m.max());
}

TEST(Moments, JsonRoundTripOfEmpty) {
  const Moments back = Moments::from_json(nlohmann::json::parse(Moments{}.to_json().dump()));
  EXPECT_EQ(back.count(), 0u);
  Moments m = back;
  m.add(5);  // min/max must still start from +/- infinity
  EXPECT_EQ(m.min(), 5.0);
  EXPECT_EQ(m.max(), 5.0);
}

}  // namespace
}  // namespace sluice
