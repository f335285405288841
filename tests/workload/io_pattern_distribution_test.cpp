#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include "common/error.h"
#include "job/job_spec.h"
#include "workload/io_pattern.h"
#include "workload_test_helpers.h"

namespace sluice {
namespace {

using testing::drain;
using testing::job_for;

constexpr std::uint64_t kBlocks = 10'000;

// Hits per 4 KiB block of a randread job over kBlocks blocks with the given distribution.
std::vector<double> block_counts(Distribution distribution, std::size_t ios) {
  JobSpec job = job_for(RwMode::kRandRead);
  job.workload.random_distribution = distribution;
  job.time.time_based = true;
  IoPattern pattern(job, {{0, kBlocks * 4096}}, 77);
  std::vector<double> counts(kBlocks, 0.0);
  for (const auto& io : drain(pattern, ios)) counts[io.offset / 4096] += 1.0;
  return counts;
}

// Share of all hits that the hottest `fraction` of the blocks received.
double hottest_share(std::vector<double> counts, double fraction) {
  std::sort(counts.begin(), counts.end(), std::greater<>());
  const auto top = static_cast<std::size_t>(fraction * static_cast<double>(counts.size()));
  double hot = 0.0;
  double all = 0.0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    all += counts[i];
    if (i < top) hot += counts[i];
  }
  return hot / all;
}

TEST(IoPatternDistribution, ZipfTopOnePercentGetsTheZipfShare) {
  const double theta = 1.2;
  double top = 0.0;
  double all = 0.0;
  for (std::uint64_t k = 1; k <= kBlocks; ++k) {
    const double p = std::pow(static_cast<double>(k), -theta);
    all += p;
    if (k <= kBlocks / 100) top += p;
  }
  // 200,000 ios: the share's standard error is under 0.001, a tenth of the tolerance (1 million took 0.2 s).
  const double share = hottest_share(block_counts({DistributionKind::kZipf, theta}, 200'000), 0.01);
  EXPECT_NEAR(share, top / all, 0.01);
}

TEST(IoPatternDistribution, ZipfHotBlocksAreSpreadOverTheRegion) {
  auto counts = block_counts({DistributionKind::kZipf, 1.2}, 200'000);
  std::vector<std::size_t> order(counts.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::partial_sort(order.begin(), order.begin() + 20, order.end(),
                    [&](std::size_t a, std::size_t b) { return counts[a] > counts[b]; });
  const auto [lowest, highest] = std::minmax_element(order.begin(), order.begin() + 20);
  EXPECT_GT(*highest - *lowest, kBlocks / 2);
}

TEST(IoPatternDistribution, ParetoHotFifthGetsEightyPercent) {
  // fio's pareto:h sends the share h of the ios to the hottest 1-h of the blocks.
  // 200,000 ios: the share's standard error is under 0.001, a tenth of the tolerance (1 million took 0.15 s).
  const double share = hottest_share(block_counts({DistributionKind::kPareto, 0.8}, 200'000), 0.2);
  EXPECT_NEAR(share, 0.8, 0.01);
}

TEST(IoPatternDistribution, NormalIsCentredWithTheGivenSpread) {
  // 150,000 ios: the mean's standard error is 3 blocks (tolerance 50), sigma's 0.2% (tolerance 2%).
  auto counts = block_counts({DistributionKind::kNormal, 10.0}, 150'000);
  double n = 0.0;
  double sum = 0.0;
  double sum_squares = 0.0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const double x = static_cast<double>(i) + 0.5;
    n += counts[i];
    sum += counts[i] * x;
    sum_squares += counts[i] * x * x;
  }
  const double mean = sum / n;
  const double sigma = std::sqrt(sum_squares / n - mean * mean);
  EXPECT_NEAR(mean, kBlocks / 2.0, kBlocks * 0.005);
  EXPECT_NEAR(sigma, kBlocks * 0.10, kBlocks * 0.10 * 0.02);
}

TEST(IoPatternDistribution, NonUniformDistributionDoesNotUseTheMap) {
  JobSpec job = job_for(RwMode::kRandRead);
  job.workload.random_distribution = {DistributionKind::kZipf, 1.2};
  IoPattern pattern(job, {{0, 1000 * 4096}}, 1);
  auto ios = drain(pattern);
  ASSERT_EQ(ios.size(), 1000u);  // ends on bytes, not on coverage
  std::vector<std::uint64_t> offsets;
  for (const auto& io : ios) offsets.push_back(io.offset);
  std::sort(offsets.begin(), offsets.end());
  EXPECT_LT(std::unique(offsets.begin(), offsets.end()) - offsets.begin(), 900);
}

// Share of the hits in blocks [from, to) of the region.
double share_between(const std::vector<double>& counts, std::size_t from, std::size_t to) {
  double in = 0.0, all = 0.0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    all += counts[i];
    if (i >= from && i < to) in += counts[i];
  }
  return in / all;
}

Distribution zoned(std::vector<AccessZone> zones, DistributionKind kind = DistributionKind::kZoned) {
  Distribution d;
  d.kind = kind;
  d.zones = {zones, zones, zones};
  return d;
}

TEST(IoPatternDistribution, ZonedSendsEachZoneItsShare) {
  // JESD219's example as fio documents it: 60% of the ios in the first 10%, 30% in the next 20%, ...
  const auto counts = block_counts(zoned({{60, 10}, {30, 20}, {8, 30}, {2, 40}}), 200'000);
  EXPECT_NEAR(share_between(counts, 0, 1'000), 0.60, 0.01);
  EXPECT_NEAR(share_between(counts, 1'000, 3'000), 0.30, 0.01);
  EXPECT_NEAR(share_between(counts, 3'000, 6'000), 0.08, 0.01);
  EXPECT_NEAR(share_between(counts, 6'000, 10'000), 0.02, 0.005);
  // Uniform inside a zone: the two halves of the first zone get about the same.
  EXPECT_NEAR(share_between(counts, 0, 500), share_between(counts, 500, 1'000), 0.01);
}

TEST(IoPatternDistribution, ZonedSizesUnder100LeaveTheRestUntouched) {
  const auto counts = block_counts(zoned({{50, 5}, {50, 15}}), 50'000);
  EXPECT_DOUBLE_EQ(share_between(counts, 2'000, 10'000), 0.0);
  EXPECT_NEAR(share_between(counts, 0, 500), 0.5, 0.015);
}

TEST(IoPatternDistribution, ZonedAbsUsesBytes) {
  // 4 KiB blocks: 90% of the ios in the first 4 MiB (1024 blocks), 10% in the next 35 MiB (to block 9984);
  // the last 16 blocks of the region are in no zone.
  const auto counts = block_counts(zoned({{90, 4u << 20}, {10, 35u << 20}}, DistributionKind::kZonedAbs), 100'000);
  EXPECT_NEAR(share_between(counts, 0, 1'024), 0.90, 0.01);
  EXPECT_NEAR(share_between(counts, 1'024, 9'984), 0.10, 0.01);
  EXPECT_DOUBLE_EQ(share_between(counts, 9'984, 10'000), 0.0);
}

TEST(IoPatternDistribution, ZonedAbsBeyondTheRegionIsRefused) {
  JobSpec job = job_for(RwMode::kRandRead);
  job.name = "z";
  job.workload.random_distribution = zoned({{100, 1ull << 30}}, DistributionKind::kZonedAbs);
  try {
    IoPattern pattern(job, {{0, kBlocks * 4096}}, 1);
    FAIL() << "expected a UserError";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("job z: random_distribution=zoned_abs: the zones end at 1073741824 bytes, "
                                         "beyond the 40960000 bytes"),
              std::string::npos)
        << e.what();
  }
}

TEST(IoPatternDistribution, ZonedPerDirection) {
  // Reads in the first 10%, writes uniform (no zones for writes).
  JobSpec job = job_for(RwMode::kRandRW);
  Distribution d;
  d.kind = DistributionKind::kZoned;
  d.zones[index_of(Direction::kRead)] = {{100, 10}};
  job.workload.random_distribution = d;
  job.time.time_based = true;
  IoPattern pattern(job, {{0, kBlocks * 4096}}, 5);
  std::size_t reads_outside = 0, writes_outside = 0, writes = 0;
  for (const auto& io : drain(pattern, 20'000)) {
    const bool outside = io.offset >= 1'000 * 4096;
    if (io.direction == Direction::kRead)
      reads_outside += outside;
    else {
      ++writes;
      writes_outside += outside;
    }
  }
  EXPECT_EQ(reads_outside, 0u);
  EXPECT_GT(writes, 5'000u);
  EXPECT_NEAR(static_cast<double>(writes_outside) / static_cast<double>(writes), 0.9, 0.02);
}

}  // namespace
}  // namespace sluice
