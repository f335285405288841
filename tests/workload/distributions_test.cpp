#include "workload/distributions.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace sluice {
namespace {

double generalized_harmonic(std::uint64_t n, double theta) {
  double sum = 0.0;
  for (std::uint64_t k = 1; k <= n; ++k) sum += std::pow(static_cast<double>(k), -theta);
  return sum;
}

TEST(BlockScrambler, IsAPermutationForManySizes) {
  for (std::uint64_t n : {1u, 2u, 3u, 5u, 64u, 1000u, 4097u}) {
    BlockScrambler scramble(n, 12345);
    std::vector<bool> hit(n, false);
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::uint64_t x = scramble(i);
      ASSERT_LT(x, n);
      ASSERT_FALSE(hit[x]) << "n=" << n << " i=" << i;
      hit[x] = true;
    }
  }
}

TEST(ZipfSampler, RankFrequenciesFollowThePowerLaw) {
  const std::uint64_t n = 1000;
  const double theta = 1.2;
  ZipfSampler zipf(n, theta);
  Rng rng(7);
  std::vector<std::uint64_t> counts(n + 1, 0);
  const int samples = 1'000'000;
  for (int i = 0; i < samples; ++i) ++counts[zipf(rng)];
  const double h = generalized_harmonic(n, theta);
  for (std::uint64_t k : {1u, 2u, 10u}) {
    const double expected = std::pow(static_cast<double>(k), -theta) / h;
    EXPECT_NEAR(static_cast<double>(counts[k]) / samples, expected, expected * 0.03) << "rank " << k;
  }
  EXPECT_EQ(counts[0], 0u);
}

TEST(ZipfSampler, ThetaOneIsHandled) {
  const std::uint64_t n = 100;
  ZipfSampler zipf(n, 1.0);
  Rng rng(3);
  int ones = 0;
  const int samples = 400'000;
  for (int i = 0; i < samples; ++i) {
    const std::uint64_t k = zipf(rng);
    ASSERT_GE(k, 1u);
    ASSERT_LE(k, n);
    ones += k == 1;
  }
  EXPECT_NEAR(static_cast<double>(ones) / samples, 1.0 / generalized_harmonic(n, 1.0), 0.005);
}

TEST(BlockDistribution, UnusableParameterFallsBackToUniform) {
  BlockDistribution pareto({DistributionKind::kPareto, 1.5}, 10, 1);
  Rng rng(1);
  std::vector<int> counts(10, 0);
  for (int i = 0; i < 100'000; ++i) ++counts[pareto(rng)];
  for (int c : counts) EXPECT_NEAR(c, 10'000, 500);
}

}  // namespace
}  // namespace sluice
