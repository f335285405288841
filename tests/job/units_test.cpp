#include "job/units.h"

#include <gtest/gtest.h>

namespace sluice {
namespace {

using std::chrono::microseconds;
using std::chrono::nanoseconds;
using std::chrono::seconds;

struct SizeCase {
  const char* text;
  std::uint32_t kb_base;
  std::uint64_t bytes;
};

class SizeSuffixTest : public ::testing::TestWithParam<SizeCase> {};

TEST_P(SizeSuffixTest, ParsesToBytes) {
  const SizeCase& c = GetParam();
  const auto bytes = parse_size(c.text, c.kb_base);
  ASSERT_TRUE(bytes.has_value()) << c.text;
  EXPECT_EQ(*bytes, c.bytes) << c.text << " kb_base=" << c.kb_base;
}

constexpr std::uint64_t kKi = 1024;
constexpr std::uint64_t kMi = kKi * kKi;
constexpr std::uint64_t kGi = kMi * kKi;
constexpr std::uint64_t kTi = kGi * kKi;
constexpr std::uint64_t kPi = kTi * kKi;

INSTANTIATE_TEST_SUITE_P(
    Suffixes, SizeSuffixTest,
    ::testing::Values(SizeCase{"4096", 1024, 4096}, SizeCase{"512b", 1024, 512}, SizeCase{"512B", 1024, 512},
                      SizeCase{"4k", 1024, 4 * kKi}, SizeCase{"4K", 1024, 4 * kKi}, SizeCase{"4kb", 1024, 4 * kKi},
                      SizeCase{"4KB", 1024, 4 * kKi}, SizeCase{"4KiB", 1024, 4 * kKi}, SizeCase{"4kib", 1024, 4 * kKi},
                      SizeCase{"1m", 1024, kMi}, SizeCase{"1MiB", 1024, kMi}, SizeCase{"1MB", 1024, kMi},
                      SizeCase{"2g", 1024, 2 * kGi}, SizeCase{"2GiB", 1024, 2 * kGi}, SizeCase{"1t", 1024, kTi},
                      SizeCase{"1p", 1024, kPi}, SizeCase{"1.5m", 1024, kMi * 3 / 2}, SizeCase{"0x1000", 1024, 4096},
                      SizeCase{"0X10", 1024, 16}, SizeCase{" 8k ", 1024, 8 * kKi},
                      // kb_base=1000: SI prefixes are powers of 1000, IEC units stay powers of 1024.
                      SizeCase{"4k", 1000, 4000}, SizeCase{"4kB", 1000, 4000}, SizeCase{"4KB", 1000, 4000},
                      SizeCase{"4KiB", 1000, 4096}, SizeCase{"1m", 1000, 1000000}, SizeCase{"1MiB", 1000, kMi},
                      SizeCase{"1g", 1000, 1000000000ULL}, SizeCase{"1GiB", 1000, kGi}));

TEST(ParseSize, RejectsGarbage) {
  for (const char* text : {"", "4q", "k", "abc", "4kk", "4 kilo", "1.5", "0x", "0xZZ", "4k4"}) {
    EXPECT_FALSE(parse_size(text).has_value()) << text;
  }
}

TEST(ParseSize, RejectsNegatives) {
  EXPECT_FALSE(parse_size("-4k").has_value());
  EXPECT_FALSE(parse_size("-1").has_value());
}

TEST(ParseSize, RejectsOverflow) {
  EXPECT_FALSE(parse_size("16384p").has_value());
  EXPECT_FALSE(parse_size("99999999999999999999").has_value());
  EXPECT_TRUE(parse_size("18446744073709551615").has_value());
}

TEST(ParseSize, RejectsPercent) { EXPECT_FALSE(parse_size("10%").has_value()); }

TEST(ParsePercent, AcceptsRangeAboveZeroToHundred) {
  EXPECT_DOUBLE_EQ(*parse_percent("10%"), 10.0);
  EXPECT_DOUBLE_EQ(*parse_percent("100%"), 100.0);
  EXPECT_DOUBLE_EQ(*parse_percent("0.5%"), 0.5);
  EXPECT_FALSE(parse_percent("0%").has_value());
  EXPECT_FALSE(parse_percent("101%").has_value());
  EXPECT_FALSE(parse_percent("10").has_value());
  EXPECT_FALSE(parse_percent("x%").has_value());
}

TEST(ParseDuration, BareNumberUsesBareUnit) {
  EXPECT_EQ(*parse_duration("10", seconds(1)), seconds(10));
  EXPECT_EQ(*parse_duration("250", microseconds(1)), microseconds(250));
}

TEST(ParseDuration, Suffixes) {
  const nanoseconds s = seconds(1);
  EXPECT_EQ(*parse_duration("5ns", s), nanoseconds(5));
  EXPECT_EQ(*parse_duration("5us", s), microseconds(5));
  EXPECT_EQ(*parse_duration("5usec", s), microseconds(5));
  EXPECT_EQ(*parse_duration("500ms", s), std::chrono::milliseconds(500));
  EXPECT_EQ(*parse_duration("500msec", s), std::chrono::milliseconds(500));
  EXPECT_EQ(*parse_duration("3s", s), seconds(3));
  EXPECT_EQ(*parse_duration("3sec", s), seconds(3));
  EXPECT_EQ(*parse_duration("2m", s), std::chrono::minutes(2));
  EXPECT_EQ(*parse_duration("2min", s), std::chrono::minutes(2));
  EXPECT_EQ(*parse_duration("1h", s), std::chrono::hours(1));
  EXPECT_EQ(*parse_duration("1d", s), std::chrono::hours(24));
  EXPECT_EQ(*parse_duration("1S", s), seconds(1));
}

TEST(ParseDuration, SuffixOverridesBareUnit) { EXPECT_EQ(*parse_duration("2s", microseconds(1)), seconds(2)); }

TEST(ParseDuration, RejectsGarbageNegativesAndOverflow) {
  for (const char* text : {"", "x", "10x", "-5", "5 years", "999999999d"}) {
    EXPECT_FALSE(parse_duration(text, seconds(1)).has_value()) << text;
  }
}

TEST(ParseBool, AcceptsFioSpellings) {
  for (const char* text : {"1", "true", "yes", "on", "", "TRUE"}) EXPECT_TRUE(*parse_bool(text)) << text;
  for (const char* text : {"0", "false", "no", "off"}) EXPECT_FALSE(*parse_bool(text)) << text;
  EXPECT_FALSE(parse_bool("2").has_value());
  EXPECT_FALSE(parse_bool("maybe").has_value());
}

TEST(ParseUnsigned, DecimalAndHex) {
  EXPECT_EQ(*parse_unsigned("42"), 42u);
  EXPECT_EQ(*parse_unsigned("0x89"), 0x89u);
  EXPECT_FALSE(parse_unsigned("-1").has_value());
  EXPECT_FALSE(parse_unsigned("4k").has_value());
  EXPECT_FALSE(parse_unsigned("99999999999999999999").has_value());
}

TEST(ParseDouble, Numbers) {
  EXPECT_DOUBLE_EQ(*parse_double("99.95"), 99.95);
  EXPECT_FALSE(parse_double("9x").has_value());
  EXPECT_FALSE(parse_double("").has_value());
}

TEST(FormatBytes, NamesBinaryUnits) {
  EXPECT_EQ(format_bytes(512), "512 B");
  EXPECT_EQ(format_bytes(4096), "4 KiB");
  EXPECT_EQ(format_bytes(1.5 * 1024 * 1024), "1.50 MiB");
  EXPECT_EQ(format_bytes(2.0 * 1024 * 1024 * 1024), "2 GiB");
}

TEST(FormatBandwidth, GivesBinaryAndDecimal) {
  EXPECT_EQ(format_bandwidth(123.4 * 1024 * 1024), "123.4 MiB/s (129.4 MB/s)");
  EXPECT_EQ(format_bandwidth(500), "500.0 B/s (500.0 B/s)");
}

TEST(FormatDuration, PicksUnit) {
  EXPECT_EQ(format_duration_ns(250), "250 ns");
  EXPECT_EQ(format_duration_ns(250000), "250 us");
  EXPECT_EQ(format_duration_ns(1.5e6), "1.50 ms");
  EXPECT_EQ(format_duration_ns(3e9), "3 s");
}

}  // namespace
}  // namespace sluice
