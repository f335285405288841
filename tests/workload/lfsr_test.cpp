#include "workload/lfsr.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace sluice {
namespace {

// Every value of 0..count-1 once, and then the period is over.
void expect_each_value_once(std::uint64_t count, std::uint64_t seed) {
  Lfsr lfsr(count, seed);
  std::vector<bool> seen(count, false);
  std::uint64_t value = 0;
  for (std::uint64_t i = 0; i < count; ++i) {
    ASSERT_TRUE(lfsr.next(value)) << "count " << count << ", value " << i;
    ASSERT_LT(value, count);
    ASSERT_FALSE(seen[value]) << "count " << count << ": " << value << " twice";
    seen[value] = true;
  }
  EXPECT_FALSE(lfsr.next(value)) << "count " << count;
}

TEST(Lfsr, SmallCountsGiveEachValueOnce) {
  for (std::uint64_t count = 1; count <= 600; ++count) expect_each_value_once(count, count * 7919);
}

// A count of 2^bits - 1 uses the whole period of the register: only a maximal-length register (a primitive
// feedback polynomial) reaches every state. Widths up to 20 are walked whole (2^20 steps).
TEST(Lfsr, EveryWidthUpToTwentyHasTheFullPeriod) {
  for (int bits = 1; bits <= 20; ++bits) {
    const std::uint64_t count = (1ull << bits) - 1;
    Lfsr lfsr(count, 12345);
    EXPECT_EQ(lfsr.bits(), bits);
    expect_each_value_once(count, 12345);
  }
}

TEST(Lfsr, WidthIsTheSmallestWhosePeriodReachesTheCount) {
  EXPECT_EQ(Lfsr(256, 1).bits(), 9);  // fio's case: 1 MiB of 4 KiB blocks
  EXPECT_EQ(Lfsr(255, 1).bits(), 8);
  EXPECT_EQ(Lfsr(1ull << 40, 1).bits(), 41);
}

TEST(Lfsr, OrderIsScrambledAndRepeatsAfterRestart) {
  Lfsr lfsr(256, 99);
  std::vector<std::uint64_t> first;
  std::uint64_t value = 0;
  while (lfsr.next(value)) first.push_back(value);
  ASSERT_EQ(first.size(), 256u);
  std::size_t ascending_steps = 0;
  for (std::size_t i = 1; i < first.size(); ++i) ascending_steps += first[i] == first[i - 1] + 1;
  EXPECT_LT(ascending_steps, 32u) << "the order looks sequential";
  lfsr.restart();
  std::vector<std::uint64_t> again;
  while (lfsr.next(value)) again.push_back(value);
  EXPECT_EQ(again, first);
}

TEST(Lfsr, SeedsStartAtDifferentPlaces) {
  Lfsr a(1000, 1);
  Lfsr b(1000, 2);
  std::uint64_t x = 0;
  std::uint64_t y = 0;
  ASSERT_TRUE(a.next(x) && b.next(y));
  EXPECT_NE(x, y);
}

TEST(Lfsr, WideRegistersStayInRange) {
  const std::uint64_t count = (1ull << 62) + 12345;
  Lfsr lfsr(count, ~0ull);
  EXPECT_EQ(lfsr.bits(), 63);
  std::uint64_t value = 0;
  for (int i = 0; i < 10000; ++i) {
    ASSERT_TRUE(lfsr.next(value));
    ASSERT_LT(value, count);
  }
}

}  // namespace
}  // namespace sluice
