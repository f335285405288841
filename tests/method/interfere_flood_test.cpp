// The flood verdict of `sluice interfere` (issue 35) on fabricated timelines: reached when Dirty + Writeback came to
// the kernel's throttle point, and otherwise the cause named (free space, --bg-size, the writer's speed, the phase's
// length). No timing: the samples are made up.
#include "method/interfere_flood.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace sluice {
namespace {

using ::testing::HasSubstr;

constexpr std::uint64_t kFloodTestMiB = 1ull << 20;

// Limits of 1000 MiB (throttling above) and 500 MiB (background): throttle point 750 MiB.
DirtyLimits limits() {
  DirtyLimits d;
  d.limit_bytes = 1000 * kFloodTestMiB;
  d.background_bytes = 500 * kFloodTestMiB;
  return d;
}

// One sample a second: Dirty and Writeback in MiB, the device's writes in MiB that second.
std::vector<WritebackSample> timeline(const std::vector<std::uint64_t>& dirty_mib, std::uint64_t writeback_mib,
                                      std::uint64_t device_mib) {
  std::vector<WritebackSample> out;
  for (std::size_t i = 0; i < dirty_mib.size(); ++i) {
    WritebackSample s;
    s.t_s = static_cast<double>(i + 1);
    s.dirty_bytes = dirty_mib[i] * kFloodTestMiB;
    s.writeback_bytes = writeback_mib * kFloodTestMiB;
    s.dev_write_bytes = device_mib * kFloodTestMiB;
    out.push_back(s);
  }
  return out;
}

FloodInput input(std::vector<WritebackSample> samples, double writer_mib_s) {
  FloodInput in;
  in.limits = limits();
  in.samples = std::move(samples);
  in.writer_bps = writer_mib_s * kFloodTestMiB;
  in.writer_bs = 1 << 20;
  in.background_bytes = 1250 * kFloodTestMiB;
  in.free_bytes = 10000 * kFloodTestMiB;
  in.phase_seconds = 10;
  return in;
}

TEST(FloodVerdict, ThrottlePointIsHalfwayBetweenBackgroundAndLimit) {
  EXPECT_EQ(throttle_point(limits()), 750 * kFloodTestMiB);
}

TEST(FloodVerdict, ReachedWhenDirtyPlusWritebackCameToTheThrottlePoint) {
  // 700 MiB dirty + 40 under writeback = 740, within 5% of 750, from the fourth second on.
  const FloodVerdict v =
      verify_flood(input(timeline({200, 400, 600, 700, 700, 700, 700, 700, 700, 700}, 40, 100), 500));
  EXPECT_TRUE(v.reached);
  EXPECT_DOUBLE_EQ(v.first_reached_s, 4);
  EXPECT_DOUBLE_EQ(v.seconds_at_limit, 7);
  EXPECT_EQ(v.peak_dirty_bytes, 700 * kFloodTestMiB);
  EXPECT_EQ(v.peak_in_memory_bytes, 740 * kFloodTestMiB);
  EXPECT_DOUBLE_EQ(v.device_bps, 100.0 * kFloodTestMiB);
  EXPECT_TRUE(v.why.empty());
  EXPECT_THAT(v.text, HasSubstr("flood verified"));
  EXPECT_THAT(v.text, HasSubstr("stayed there 7 s of 10"));
}

TEST(FloodVerdict, BelowTheThrottlePointIsNotReached) {
  // 690 + 10 = 700 MiB: more than 5% below 750.
  const FloodVerdict v = verify_flood(input(timeline({690, 690, 690}, 10, 100), 500));
  EXPECT_FALSE(v.reached);
  EXPECT_THAT(v.text, HasSubstr("the background writer never reached the dirty limit (peak Dirty 690 MiB of 1000 MiB"));
  EXPECT_THAT(v.text, HasSubstr("this run does not test writeback interference"));
}

TEST(FloodVerdict, FreeSpaceIsTheCauseWhenTheFilesWereCappedBelowTheThrottlePoint) {
  FloodInput in = input(timeline({300, 400, 400}, 0, 100), 500);
  in.background_bytes = 400 * kFloodTestMiB;
  in.sizing = BackgroundSizing::kCappedBySpace;
  in.free_bytes = 1700 * kFloodTestMiB;
  const FloodVerdict v = verify_flood(in);
  EXPECT_FALSE(v.reached);
  EXPECT_THAT(v.why,
              HasSubstr("free space: the background files could be only 400 MiB (the filesystem had 1700 MiB free"));
}

TEST(FloodVerdict, AUserSizeBelowTheThrottlePointIsNamed) {
  FloodInput in = input(timeline({64, 64}, 0, 10), 500);
  in.background_bytes = 64 * kFloodTestMiB;
  in.sizing = BackgroundSizing::kUserSize;
  EXPECT_THAT(verify_flood(in).why, HasSubstr("--bg-size=64 MiB is below the 750 MiB needed"));
}

TEST(FloodVerdict, AWriterNoFasterThanTheDeviceIsTheCause) {
  // Dirty rises, never levelling off: writeback at 250 MiB/s keeps up with a 180 MiB/s writer.
  const FloodVerdict v = verify_flood(input(timeline({180, 250, 300, 320}, 20, 250), 180));
  EXPECT_FALSE(v.reached);
  EXPECT_THAT(v.why,
              HasSubstr("the writer's speed: 1 writer of 1 MiB blocks dirtied pages at 180 MiB/s, no faster than "
                        "the device wrote them back (250 MiB/s)"));
  EXPECT_THAT(v.why, HasSubstr("--bg-writers"));
}

TEST(FloodVerdict, DirtyHeldAtTheBackgroundThresholdMeansWritebackKeptUp) {
  // 500 MiB is the background threshold: held there 5 s while the device wrote 150 MiB/s, whatever the writer's
  // average over the phase (its fast start included).
  const FloodVerdict v = verify_flood(input(timeline({300, 480, 500, 510, 495, 500}, 0, 150), 240));
  EXPECT_FALSE(v.reached);
  EXPECT_DOUBLE_EQ(v.seconds_at_background, 5);
  EXPECT_THAT(v.why, HasSubstr("Dirty + Writeback held at the background threshold for 5 s, writeback draining the "
                               "writer as fast as it wrote (the device wrote 150 MiB/s then"));
}

TEST(FloodVerdict, APhaseTooShortForTheNetRateIsTheCause) {
  // 400 MiB/s into the cache, 100 out: 300 net needs 2.5 s for 750 MiB, longer than a 2 s phase.
  FloodInput in = input(timeline({0, 600}, 0, 100), 400);
  in.phase_seconds = 2;
  const FloodVerdict v = verify_flood(in);
  EXPECT_FALSE(v.reached);
  EXPECT_THAT(v.why, HasSubstr("needs ~2.5 s to reach 750 MiB, longer than the 2 s phase"));
}

TEST(FloodVerdict, AWriterThatWroteNothingIsTheCause) {
  EXPECT_EQ(verify_flood(input(timeline({0, 0}, 0, 0), 0)).why, "the background writer wrote nothing");
}

TEST(FloodVerdict, JsonCarriesTheVerdictAndItsCause) {
  const nlohmann::json j = flood_json(verify_flood(input(timeline({180, 300, 320}, 0, 250), 180)));
  EXPECT_EQ(j["reached_dirty_limit"], false);
  EXPECT_EQ(j["throttle_point_bytes"], 750 * kFloodTestMiB);
  EXPECT_EQ(j["peak_dirty_bytes"], 320 * kFloodTestMiB);
  EXPECT_TRUE(j["first_reached_s"].is_null());
  EXPECT_THAT(j["why_not"].get<std::string>(), HasSubstr("the writer's speed"));
  EXPECT_THAT(j["message"].get<std::string>(), HasSubstr("never reached the dirty limit"));
}

}  // namespace
}  // namespace sluice

namespace sluice {
namespace {

TEST(FloodVerdict, TheKernelsOwnThresholdsAtEachSampleWinOverThePhasesEstimate) {
  // The phase's estimate says 750 MiB; the kernel, at the samples, 600 / 300 MiB: throttle point 450 MiB.
  std::vector<WritebackSample> samples = timeline({300, 440, 440}, 0, 100);
  for (WritebackSample& s : samples) {
    s.dirty_threshold_bytes = 600 * kFloodTestMiB;
    s.background_threshold_bytes = 300 * kFloodTestMiB;
  }
  const FloodVerdict v = verify_flood(input(samples, 500));
  EXPECT_TRUE(v.reached);
  EXPECT_EQ(v.throttle_bytes, 450 * kFloodTestMiB);
  EXPECT_EQ(v.limit_bytes, 600 * kFloodTestMiB);
  EXPECT_DOUBLE_EQ(v.first_reached_s, 2);
}

TEST(FloodVerdict, AWriterSlowedBesideTheForegroundIsComparedWithOneAlone) {
  FloodInput in = input(timeline({180, 250, 300, 320}, 20, 130), 129);
  in.writer_alone_bps = 3139.0 * kFloodTestMiB;
  EXPECT_THAT(verify_flood(in).why, HasSubstr("one writer alone measured 3139 MiB/s, 24x faster than these beside the "
                                              "fsync'd foreground"));
}

}  // namespace
}  // namespace sluice
