// The dirty-limit arithmetic and the explanation on synthetic /proc values.
#include "method/interfere_explain.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "support/temp_dir.h"

namespace sluice {
namespace {

constexpr std::uint64_t kMiB = 1ull << 20;

MemInfo memory_of_mib(std::uint64_t free, std::uint64_t active_file, std::uint64_t inactive_file) {
  MemInfo m;
  m.mem_free = free * kMiB;
  m.active_file = active_file * kMiB;
  m.inactive_file = inactive_file * kMiB;
  m.cached = 9999 * kMiB;  // not part of the formula
  return m;
}

TEST(DirtyLimits, RatiosApplyToFreePlusFileLru) {
  const DirtyLimits d = resolve_dirty_limits(memory_of_mib(800, 100, 100), VmDirtySettings{});
  EXPECT_EQ(d.dirtyable_bytes, 1000 * kMiB);
  EXPECT_EQ(d.limit_bytes, 200 * kMiB);       // 20 %
  EXPECT_EQ(d.background_bytes, 100 * kMiB);  // 10 %
  EXPECT_FALSE(d.limit_from_bytes);
}

TEST(DirtyLimits, BytesSettingsWinOverRatios) {
  VmDirtySettings vm;
  vm.dirty_bytes = 15 * kMiB;
  vm.dirty_background_bytes = 5 * kMiB;
  const DirtyLimits d = resolve_dirty_limits(memory_of_mib(1000, 0, 0), vm);
  EXPECT_EQ(d.limit_bytes, 15 * kMiB);
  EXPECT_EQ(d.background_bytes, 5 * kMiB);
  EXPECT_TRUE(d.limit_from_bytes);
  EXPECT_TRUE(d.background_from_bytes);
}

TEST(DirtyLimits, BackgroundNotBelowLimitIsHalved) {
  VmDirtySettings vm;
  vm.dirty_bytes = 10 * kMiB;  // background stays 10 % of 1000 MiB = 100 MiB > limit
  const DirtyLimits d = resolve_dirty_limits(memory_of_mib(1000, 0, 0), vm);
  EXPECT_EQ(d.background_bytes, 5 * kMiB);
}

TEST(Explain, LimitsInSecondsOfDeviceWriting) {
  ExplainInput in;
  in.limits = resolve_dirty_limits(memory_of_mib(800, 100, 100), VmDirtySettings{});
  in.device_write_bps = 50.0 * kMiB;
  in.background_bps = 400.0 * kMiB;
  in.peak_dirty_bytes = 150 * kMiB;
  const Explanation e = explain(in);
  EXPECT_DOUBLE_EQ(e.limit_seconds, 4.0);       // 200 MiB / 50 MiB/s
  EXPECT_DOUBLE_EQ(e.background_seconds, 2.0);  // 100 MiB / 50 MiB/s
  EXPECT_DOUBLE_EQ(e.fill_seconds, 0.25);       // 100 MiB / 400 MiB/s
  EXPECT_TRUE(e.reached_background);
  EXPECT_NE(e.text.find("200 MiB"), std::string::npos);
  EXPECT_NE(e.text.find("up to 4.0 s of device writing"), std::string::npos);
}

TEST(Explain, SaysWhenTheFloodStayedBelowTheBackgroundThreshold) {
  ExplainInput in;
  in.limits = resolve_dirty_limits(memory_of_mib(8000, 1000, 1000), VmDirtySettings{});  // bg 1000 MiB
  in.peak_dirty_bytes = 300 * kMiB;
  in.phase_seconds = 10;
  const Explanation e = explain(in);
  EXPECT_FALSE(e.reached_background);
  EXPECT_NE(e.text.find("below the background threshold"), std::string::npos);
  EXPECT_NE(e.text.find("not measured"), std::string::npos);
}

TEST(Explain, APlateauOfDirtyBelowTheEstimateCountsAsTheThreshold) {
  ExplainInput in;
  in.limits = resolve_dirty_limits(memory_of_mib(8000, 1000, 1000), VmDirtySettings{});  // bg 1000 MiB
  in.peak_dirty_bytes = 900 * kMiB;
  in.plateau_start_s = 12;
  in.plateau_bytes = 880 * kMiB;
  const Explanation e = explain(in);
  EXPECT_TRUE(e.reached_background);
  EXPECT_NE(e.text.find("levelled off at 880"), std::string::npos) << e.text;
  EXPECT_EQ(e.text.find("below the background threshold"), std::string::npos);
}

TEST(DirtyPlateau, FindsTheFirstFlatRunAboveTheFloor) {
  const std::vector<double> t = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  const std::vector<std::uint64_t> dirty = {10 * kMiB,  200 * kMiB, 400 * kMiB, 600 * kMiB, 610 * kMiB,
                                            605 * kMiB, 620 * kMiB, 600 * kMiB, 598 * kMiB};
  const DirtyPlateau plateau = find_dirty_plateau(t, dirty);
  EXPECT_EQ(plateau.start_s, 4);
  EXPECT_EQ(plateau.bytes, 600 * kMiB);
}

TEST(DirtyPlateau, NoneWhileDirtyKeepsGrowingOrStaysSmall) {
  const std::vector<double> t = {1, 2, 3, 4, 5, 6};
  EXPECT_LT(find_dirty_plateau(t, {100 * kMiB, 200 * kMiB, 300 * kMiB, 400 * kMiB, 500 * kMiB, 600 * kMiB}).start_s, 0);
  EXPECT_LT(find_dirty_plateau(t, {kMiB, kMiB, kMiB, kMiB, kMiB, kMiB}).start_s, 0);
}

}  // namespace
}  // namespace sluice
