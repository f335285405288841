#include "stats/time_series.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace sluice {
namespace {

PerDirection<IntervalSample> sample(std::uint64_t read_ops, std::uint64_t p99 = 0, std::uint64_t write_ops = 0) {
  PerDirection<IntervalSample> s{};
  s[index_of(Direction::kRead)] = {read_ops, read_ops * 4096, read_ops * 1000, p99};
  s[index_of(Direction::kWrite)] = {write_ops, write_ops * 8192, write_ops * 2000, p99};
  return s;
}

std::uint64_t total_read_ops(const TimeSeries& ts) {
  std::uint64_t n = 0;
  for (const auto& s : ts.samples()) n += s[0].ops;
  return n;
}

TEST(TimeSeries, AppendKeepsSamplesInOrder) {
  TimeSeries ts(100);
  ts.append(sample(1));
  ts.append(sample(2));
  ASSERT_EQ(ts.size(), 2u);
  EXPECT_EQ(ts.at(0)[0].ops, 1u);
  EXPECT_EQ(ts.at(1)[0].ops, 2u);
  EXPECT_EQ(ts.at(1)[0].bytes, 2u * 4096);
  EXPECT_EQ(ts.interval_ns(), 100u);
}

TEST(TimeSeries, FullSeriesHalvesResolutionMergingPairs) {
  TimeSeries ts(1000);
  for (std::size_t i = 0; i < TimeSeries::kMaxSamples; ++i) ts.append(sample(1, i));
  EXPECT_EQ(ts.size(), TimeSeries::kMaxSamples);
  EXPECT_EQ(ts.interval_ns(), 1000u);
  ts.append(sample(1, 99999));
  EXPECT_EQ(ts.interval_ns(), 2000u);
  ASSERT_EQ(ts.size(), TimeSeries::kMaxSamples / 2 + 1);
  EXPECT_EQ(ts.at(0)[0].ops, 2u);
  EXPECT_EQ(ts.at(0)[0].bytes, 2u * 4096);
  EXPECT_EQ(ts.at(0)[0].lat_sum_ns, 2000u);
  EXPECT_EQ(ts.at(0)[0].lat_p99_ns, 1u);  // max of p99 0 and 1
  EXPECT_EQ(ts.at(5)[0].lat_p99_ns, 11u);
  EXPECT_EQ(total_read_ops(ts), TimeSeries::kMaxSamples + 1);
}

TEST(TimeSeries, AppendsAfterHalvingFillTheCoarserInterval) {
  TimeSeries ts(1000);
  for (std::size_t i = 0; i < TimeSeries::kMaxSamples + 1; ++i) ts.append(sample(1));
  ts.append(sample(1));  // second base interval of the last 2000 ns sample
  EXPECT_EQ(ts.size(), TimeSeries::kMaxSamples / 2 + 1);
  EXPECT_EQ(ts.samples().back()[0].ops, 2u);
  ts.append(sample(1));
  EXPECT_EQ(ts.size(), TimeSeries::kMaxSamples / 2 + 2);
  EXPECT_EQ(ts.base_interval_ns(), 1000u);
}

TEST(TimeSeries, NeverExceedsMaxSamples) {
  TimeSeries ts(1);
  for (std::size_t i = 0; i < TimeSeries::kMaxSamples * 5 + 3; ++i) ts.append(sample(1));
  EXPECT_LE(ts.size(), TimeSeries::kMaxSamples);
  EXPECT_EQ(total_read_ops(ts), TimeSeries::kMaxSamples * 5 + 3);
  EXPECT_EQ(ts.interval_ns(), 8u);
}

TEST(TimeSeries, MergeSumsSampleBySample) {
  TimeSeries a(1000), b(1000);
  a.append(sample(1, 10, 3));
  a.append(sample(2, 20));
  b.append(sample(10, 5));
  b.append(sample(20, 50));
  b.append(sample(30, 60));
  a.merge(b);
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a.at(0)[0].ops, 11u);
  EXPECT_EQ(a.at(0)[1].ops, 3u);
  EXPECT_EQ(a.at(0)[0].lat_p99_ns, 10u);
  EXPECT_EQ(a.at(1)[0].ops, 22u);
  EXPECT_EQ(a.at(1)[0].lat_p99_ns, 50u);
  EXPECT_EQ(a.at(2)[0].ops, 30u);
}

TEST(TimeSeries, MergeBringsFinerSeriesToCoarserInterval) {
  TimeSeries coarse(1000), fine(1000);
  for (std::size_t i = 0; i < TimeSeries::kMaxSamples + 1; ++i) coarse.append(sample(1));
  ASSERT_EQ(coarse.interval_ns(), 2000u);
  for (int i = 0; i < 4; ++i) fine.append(sample(5));
  fine.merge(coarse);
  EXPECT_EQ(fine.interval_ns(), 2000u);
  EXPECT_EQ(fine.size(), coarse.size());
  EXPECT_EQ(fine.at(0)[0].ops, 12u);
  EXPECT_EQ(fine.at(1)[0].ops, 12u);
  EXPECT_EQ(fine.at(2)[0].ops, 2u);
  EXPECT_EQ(total_read_ops(fine), total_read_ops(coarse) + 20);
}

TEST(TimeSeries, JsonRoundTrip) {
  TimeSeries ts(250'000'000);
  ts.append(sample(1, 100, 7));
  ts.append(sample(2, 200));
  const TimeSeries back = TimeSeries::from_json(nlohmann::json::parse(ts.to_json().dump()));
  EXPECT_EQ(back.interval_ns(), ts.interval_ns());
  EXPECT_EQ(back.base_interval_ns(), ts.base_interval_ns());
  ASSERT_EQ(back.size(), ts.size());
  for (std::size_t i = 0; i < ts.size(); ++i) {
    for (int d = 0; d < kNumDirections; ++d) {
      EXPECT_EQ(back.at(i)[d].ops, ts.at(i)[d].ops);
      EXPECT_EQ(back.at(i)[d].bytes, ts.at(i)[d].bytes);
      EXPECT_EQ(back.at(i)[d].lat_sum_ns, ts.at(i)[d].lat_sum_ns);
      EXPECT_EQ(back.at(i)[d].lat_p99_ns, ts.at(i)[d].lat_p99_ns);
    }
  }
}

}  // namespace
}  // namespace sluice
