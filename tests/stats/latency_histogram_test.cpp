#include "stats/latency_histogram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <random>
#include <vector>

#include "common/error.h"

namespace sluice {
namespace {

using H = LatencyHistogram;

double relative_error(std::uint64_t reported, std::uint64_t actual) {
  const double a = static_cast<double>(actual);
  return std::fabs(static_cast<double>(reported) - a) / a;
}

// The exact percentile with fio's rank definition: the sample of rank ceil(p/100 * n), at least 1.
std::uint64_t exact_percentile(const std::vector<std::uint64_t>& sorted, double p) {
  long double target = static_cast<long double>(p) / 100.0L * static_cast<long double>(sorted.size());
  auto rank = static_cast<std::size_t>(std::ceil(target));
  rank = std::clamp<std::size_t>(rank, 1, sorted.size());
  return sorted[rank - 1];
}

void expect_percentiles_within_1pct(const std::vector<std::uint64_t>& samples) {
  H h;
  for (auto v : samples) h.record(v);
  std::vector<std::uint64_t> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  for (double p : {1.0, 5.0, 10.0, 25.0, 50.0, 75.0, 90.0, 95.0, 99.0, 99.5, 99.9, 99.95, 99.99, 100.0}) {
    const std::uint64_t exact = exact_percentile(sorted, p);
    const std::uint64_t got = h.percentile(p);
    if (exact == 0) {
      EXPECT_EQ(got, 0u) << "p=" << p;
    } else {
      EXPECT_LE(relative_error(got, exact), 0.01) << "p=" << p << " exact=" << exact << " got=" << got;
    }
  }
}

TEST(LatencyHistogram, ValuesBelow128AreExact) {
  for (std::uint64_t v = 0; v < 128; ++v) {
    EXPECT_EQ(H::bucket_of(v), static_cast<int>(v));
    EXPECT_EQ(H::bucket_value(static_cast<int>(v)), v);
  }
}

TEST(LatencyHistogram, BucketsAreContiguousAndCoverTheRange) {
  EXPECT_EQ(H::bucket_low(0), 0u);
  for (int b = 1; b < H::kNumBuckets; ++b) {
    ASSERT_EQ(H::bucket_low(b), H::bucket_high(b - 1) + 1) << "bucket " << b;
  }
  EXPECT_EQ(H::bucket_high(H::kNumBuckets - 1), H::kMaxValue);
  EXPECT_EQ(H::kMaxValue, (1ull << 48) - 1);
}

TEST(LatencyHistogram, BucketOfMapsEveryBoundaryToItsBucket) {
  for (int b = 0; b < H::kNumBuckets; ++b) {
    ASSERT_EQ(H::bucket_of(H::bucket_low(b)), b);
    ASSERT_EQ(H::bucket_of(H::bucket_high(b)), b);
  }
}

TEST(LatencyHistogram, ErrorBoundHoldsAtEveryBucketBoundary) {
  for (int b = 1; b < H::kNumBuckets; ++b) {
    const std::uint64_t value = H::bucket_value(b);
    ASSERT_LE(relative_error(value, H::bucket_low(b)), H::kMaxRelativeError) << "bucket " << b;
    ASSERT_LE(relative_error(value, H::bucket_high(b)), H::kMaxRelativeError) << "bucket " << b;
  }
}

TEST(LatencyHistogram, ErrorBoundHoldsForRandomValuesAcrossTheRange) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> log2_value(0.0, 48.0);
  for (int i = 0; i < 1'000'000; ++i) {
    auto v = static_cast<std::uint64_t>(std::exp2(log2_value(rng)));
    v = std::clamp<std::uint64_t>(v, 1, H::kMaxValue);
    const std::uint64_t reported = H::bucket_value(H::bucket_of(v));
    ASSERT_LE(relative_error(reported, v), H::kMaxRelativeError) << "value " << v;
  }
}

TEST(LatencyHistogram, EmptyPercentileIsZero) {
  H h;
  EXPECT_EQ(h.percentile(50), 0u);
  EXPECT_EQ(h.total(), 0u);
}

TEST(LatencyHistogram, PercentileZeroIsSmallestAndHundredIsLargest) {
  H h;
  h.record(1000);
  h.record(5000);
  h.record(900000);
  EXPECT_EQ(h.percentile(0), H::bucket_value(H::bucket_of(1000)));
  EXPECT_EQ(h.percentile(100), H::bucket_value(H::bucket_of(900000)));
}

TEST(LatencyHistogram, PercentileUsesFioRank) {
  H h;  // 10 samples 1..10 (exact buckets): p50 -> rank 5, p51 -> rank ceil(5.1) = 6
  for (std::uint64_t v = 1; v <= 10; ++v) h.record(v);
  EXPECT_EQ(h.percentile(50), 5u);
  EXPECT_EQ(h.percentile(51), 6u);
  EXPECT_EQ(h.percentile(10), 1u);
  EXPECT_EQ(h.percentile(99.9), 10u);
}

TEST(LatencyHistogram, PercentilesOfLognormalWithin1Percent) {
  std::mt19937_64 rng(1);
  std::lognormal_distribution<double> dist(std::log(200'000.0), 1.0);
  std::vector<std::uint64_t> samples(200'000);
  for (auto& s : samples) s = static_cast<std::uint64_t>(dist(rng));
  expect_percentiles_within_1pct(samples);
}

TEST(LatencyHistogram, PercentilesOfHeavyTailWithin1Percent) {
  std::mt19937_64 rng(2);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<std::uint64_t> samples(200'000);
  for (auto& s : samples) {  // Pareto, alpha 1.1, scale 20 us
    const double x = 20'000.0 / std::pow(1.0 - u(rng), 1.0 / 1.1);
    s = std::min<std::uint64_t>(static_cast<std::uint64_t>(x), H::kMaxValue);
  }
  expect_percentiles_within_1pct(samples);
}

TEST(LatencyHistogram, PercentilesOfBimodalWithin1Percent) {
  std::mt19937_64 rng(3);
  std::normal_distribution<double> fast(80'000.0, 5'000.0);  // cache hits
  std::normal_distribution<double> slow(8'000'000.0, 1e6);   // media reads
  std::bernoulli_distribution is_slow(0.07);
  std::vector<std::uint64_t> samples(200'000);
  for (auto& s : samples) s = static_cast<std::uint64_t>(std::max(1.0, is_slow(rng) ? slow(rng) : fast(rng)));
  expect_percentiles_within_1pct(samples);
}

TEST(LatencyHistogram, OneHourIsInRangeAndWithin1Percent) {
  H h;
  const std::uint64_t hour = 3'600'000'000'000ull;
  h.record(hour);
  EXPECT_EQ(h.overflow(), 0u);
  EXPECT_LE(relative_error(h.percentile(50), hour), 0.01);
}

TEST(LatencyHistogram, ValuesAboveRangeAreClampedAndCounted) {
  H h;
  h.record(1ull << 50);
  h.record(H::kMaxValue);
  EXPECT_EQ(h.overflow(), 1u);
  EXPECT_EQ(h.total(), 2u);
  EXPECT_EQ(h.count_at(H::kNumBuckets - 1), 2u);
}

TEST(LatencyHistogram, RecordNCountsN) {
  H h;
  h.record_n(5000, 7);
  EXPECT_EQ(h.total(), 7u);
  EXPECT_EQ(h.count_at(H::bucket_of(5000)), 7u);
}

TEST(LatencyHistogram, MergeEqualsRecordingAllSamplesIntoOne) {
  std::mt19937_64 rng(4);
  std::lognormal_distribution<double> dist(12.0, 2.0);
  H a, b, all;
  for (int i = 0; i < 50'000; ++i) {
    const auto v = static_cast<std::uint64_t>(dist(rng));
    (i % 3 == 0 ? a : b).record(v);
    all.record(v);
  }
  a.merge(b);
  EXPECT_EQ(a.total(), all.total());
  EXPECT_EQ(a.overflow(), all.overflow());
  for (int bucket = 0; bucket < H::kNumBuckets; ++bucket) ASSERT_EQ(a.count_at(bucket), all.count_at(bucket));
}

TEST(LatencyHistogram, TheBucketArrayExistsOnlyOnceASampleArrives) {
  H unused, other_unused, used;
  EXPECT_EQ(unused.heap_bytes(), 0u);
  unused.merge(other_unused);
  EXPECT_EQ(unused.heap_bytes(), 0u);
  EXPECT_EQ(unused.percentile(99), 0u);
  EXPECT_EQ(unused.count_at(H::bucket_of(5000)), 0u);
  EXPECT_EQ(H::from_json(unused.to_json()).heap_bytes(), 0u);
  const H copy = unused;
  EXPECT_EQ(copy.heap_bytes(), 0u);

  used.record(5000);
  EXPECT_EQ(used.heap_bytes(), H::kNumBuckets * sizeof(std::uint64_t));
  unused.merge(used);  // an empty histogram takes the other's buckets
  EXPECT_EQ(unused.count_at(H::bucket_of(5000)), 1u);
  EXPECT_EQ(unused.percentile(50), used.percentile(50));
  used.merge(other_unused);  // and merging an empty one changes nothing
  EXPECT_EQ(used.total(), 1u);
  EXPECT_EQ(used.count_at(H::bucket_of(5000)), 1u);
}

TEST(LatencyHistogram, ResetEmpties) {
  H h;
  h.record(10);
  h.record(1ull << 60);
  h.reset();
  EXPECT_EQ(h.total(), 0u);
  EXPECT_EQ(h.overflow(), 0u);
  EXPECT_EQ(h.count_at(10), 0u);
}

TEST(LatencyHistogram, JsonRoundTrip) {
  H h;
  std::mt19937_64 rng(5);
  std::lognormal_distribution<double> dist(10.0, 3.0);
  for (int i = 0; i < 10'000; ++i) h.record(static_cast<std::uint64_t>(dist(rng)));
  h.record(1ull << 55);
  const nlohmann::json j = h.to_json();
  EXPECT_EQ(j.at("bucket_scheme"), "log-linear-64");
  const H back = H::from_json(nlohmann::json::parse(j.dump()));
  EXPECT_EQ(back.total(), h.total());
  EXPECT_EQ(back.overflow(), h.overflow());
  for (int bucket = 0; bucket < H::kNumBuckets; ++bucket) ASSERT_EQ(back.count_at(bucket), h.count_at(bucket));
}

TEST(LatencyHistogram, JsonIsSparse) {
  H h;
  h.record(100);
  h.record(100);
  h.record(1'000'000);
  EXPECT_EQ(h.to_json().at("counts").size(), 2u);
}

TEST(LatencyHistogram, FromJsonRejectsOtherScheme) {
  const nlohmann::json j = {{"bucket_scheme", "fio-plat-1856"}, {"counts", nlohmann::json::array()}};
  EXPECT_THROW(H::from_json(j), UserError);
}

TEST(LatencyHistogram, FromJsonRejectsBucketOutOfRange) {
  const nlohmann::json j = {{"bucket_scheme", "log-linear-64"}, {"counts", {{H::kNumBuckets, 1}}}};
  EXPECT_THROW(H::from_json(j), UserError);
}

}  // namespace
}  // namespace sluice
