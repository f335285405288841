// sluice quick's sizing rules and budget split (quick_plan.h), on made-up machines.
#include "method/quick_plan.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace sluice {
namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;

constexpr std::uint64_t kQuickGiB = 1ull << 30;
constexpr std::uint64_t kQuickMiB = 1ull << 20;

SizingInputs roomy_machine() {
  SizingInputs in;
  in.free_bytes = 500 * kQuickGiB;
  in.ram_bytes = 16 * kQuickGiB;
  in.direct = true;
  return in;
}

bool has_warning_containing(const SizingDecision& d, const std::string& text) {
  for (const Problem& p : d.warnings) {
    if (p.message.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(QuickSizing, DirectIoIgnoresRamAndPrefersAFewGiB) {
  const SizingDecision d = decide_size(roomy_machine());
  EXPECT_EQ(d.size, kQuickPreferredSize);
  EXPECT_EQ(d.cache_bytes, 0u);
  EXPECT_EQ(d.limited_by, SizeLimit::kNone);
  EXPECT_TRUE(d.warnings.empty());
}

TEST(QuickSizing, BufferedIoWantsTenTimesRam) {
  SizingInputs in = roomy_machine();
  in.direct = false;
  const SizingDecision d = decide_size(in);
  EXPECT_EQ(d.cache_bytes, 16 * kQuickGiB);
  EXPECT_EQ(d.wanted, 160 * kQuickGiB);
  EXPECT_EQ(d.size, 160 * kQuickGiB);
}

TEST(QuickSizing, DeviceCacheCountsTenTimes) {
  SizingInputs in = roomy_machine();
  in.device_cache_bytes = 1 * kQuickGiB;
  EXPECT_EQ(decide_size(in).size, 10 * kQuickGiB);
}

TEST(QuickSizing, NeverTakesMoreThanHalfTheFreeSpaceAndSaysSo) {
  SizingInputs in = roomy_machine();
  in.free_bytes = 2 * kQuickGiB;
  const SizingDecision d = decide_size(in);
  EXPECT_EQ(d.size, 1 * kQuickGiB);
  EXPECT_EQ(d.limited_by, SizeLimit::kFreeSpace);
  EXPECT_TRUE(has_warning_containing(d, "shrunk to 1 GiB"));
}

TEST(QuickSizing, BufferedShrunkBelowTenTimesRamWarnsOfTheCache) {
  SizingInputs in = roomy_machine();
  in.direct = false;
  in.free_bytes = 40 * kQuickGiB;
  const SizingDecision d = decide_size(in);
  EXPECT_EQ(d.size, 20 * kQuickGiB);
  EXPECT_TRUE(has_warning_containing(d, "smaller than 10x RAM"));
}

TEST(QuickSizing, LayoutMustFitItsShareOfTheBudget) {
  SizingInputs in = roomy_machine();
  in.layout_bytes_per_second = 100.0 * kQuickMiB;
  in.layout_time = 10s;
  const SizingDecision d = decide_size(in);
  EXPECT_EQ(d.size, 1000 * kQuickMiB);
  EXPECT_EQ(d.limited_by, SizeLimit::kBudget);
  EXPECT_TRUE(has_warning_containing(d, "--budget"));
}

TEST(QuickSizing, FastLayoutIsNotLimitedByTheBudget) {
  SizingInputs in = roomy_machine();
  in.layout_bytes_per_second = 2000.0 * kQuickMiB;
  in.layout_time = 18s;
  EXPECT_EQ(decide_size(in).limited_by, SizeLimit::kNone);
}

TEST(QuickSizing, BudgetNeverShrinksBelowTheMinimum) {
  SizingInputs in = roomy_machine();
  in.layout_bytes_per_second = 1.0 * kQuickMiB;
  in.layout_time = 1s;
  EXPECT_EQ(decide_size(in).size, kQuickMinimumSize);
}

TEST(QuickSizing, SizesAreWholeMiB) {
  SizingInputs in = roomy_machine();
  in.free_bytes = 3 * kQuickGiB + 12345;
  EXPECT_EQ(decide_size(in).size % kQuickSizeAlign, 0u);
}

TEST(QuickSizing, TooLittleFreeSpaceIsAUserError) {
  SizingInputs in = roomy_machine();
  in.free_bytes = 10 * kQuickMiB;
  EXPECT_THROW(decide_size(in), UserError);
}

TEST(QuickSizing, RequestedSizeIsUsedAsGiven) {
  SizingInputs in = roomy_machine();
  in.requested = 64 * kQuickMiB;
  const SizingDecision d = decide_size(in);
  EXPECT_EQ(d.size, 64 * kQuickMiB);
  EXPECT_EQ(d.limited_by, SizeLimit::kRequested);
}

TEST(QuickSizing, RequestedSizeBeyondFreeSpaceIsAUserError) {
  SizingInputs in = roomy_machine();
  in.free_bytes = 1 * kQuickGiB;
  in.requested = 2 * kQuickGiB;
  try {
    decide_size(in);
    FAIL() << "no error";
  } catch (const UserError& e) {
    EXPECT_THAT(e.what(), HasSubstr("--size"));
  }
}

TEST(QuickSizing, RequestedSizeOverHalfTheFreeSpaceWarns) {
  SizingInputs in = roomy_machine();
  in.free_bytes = 1 * kQuickGiB;
  in.requested = 768 * kQuickMiB;
  EXPECT_TRUE(has_warning_containing(decide_size(in), "more than half"));
}

TEST(QuickBudget, SharesSumToOneHundredPercent) {
  double sum = 0;
  for (std::size_t i = 0; i < kQuickStepCount; ++i) sum += step_weight(static_cast<QuickStep>(i));
  EXPECT_DOUBLE_EQ(sum, 100.0);
}

TEST(QuickBudget, FirstSlotIsItsShareOfTheWhole) { EXPECT_EQ(step_slot(QuickStep::kLayout, 120s), 18s); }

TEST(QuickBudget, LastStepGetsAllThatRemains) { EXPECT_EQ(step_slot(QuickStep::kFsyncWrite, 7s), 7s); }

TEST(QuickBudget, RemainingTimeIsSharedByWeight) {
  // After the layout, 102 s remain for weights 10+10+20+20+5+5+15 = 85: the random read capacity gets 20/85.
  EXPECT_EQ(step_slot(QuickStep::kSeqWrite, 85s), 10s);
  EXPECT_EQ(step_slot(QuickStep::kRandReadCapacity, 65s), 20s);
}

TEST(QuickBudget, SlotsOfAnOnTimeRunAddUpToTheBudget) {
  auto remaining = std::chrono::nanoseconds(120s);
  std::chrono::nanoseconds total{0};
  for (std::size_t i = 0; i < kQuickStepCount; ++i) {
    const auto slot = step_slot(static_cast<QuickStep>(i), remaining);
    total += slot;
    remaining -= slot;
  }
  EXPECT_NEAR(std::chrono::duration<double>(total).count(), 120.0, 1e-6);
}

TEST(QuickBudget, OverrunLeavesNoTime) { EXPECT_EQ(step_slot(QuickStep::kSeqRead, -1s).count(), 0); }

TEST(QuickBudget, TimingRampsFifteenPercentUpToOneSecond) {
  const TestTiming small = timing_for_slot(2s);
  EXPECT_EQ(small.ramp, 300ms);
  EXPECT_EQ(small.runtime, 1700ms);
  const TestTiming large = timing_for_slot(12s);
  EXPECT_EQ(large.ramp, 1s);
  EXPECT_EQ(large.runtime, 11s);
}

TEST(QuickBudget, RuntimeHasAFloor) { EXPECT_EQ(timing_for_slot(0s).runtime, 200ms); }

}  // namespace
}  // namespace sluice
