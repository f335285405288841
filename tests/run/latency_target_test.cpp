// LatencyTarget against fio 3.33's io_u.c lat_target_* rules, window by window.
#include "run/latency_target.h"

#include <gtest/gtest.h>

namespace sluice {
namespace {

constexpr std::uint64_t kWindow = 1'000'000;
constexpr std::uint64_t kTarget = 500;

LatencyTargetSettings settings(double percentile = 100.0, bool keep_running = false) {
  return {.target_ns = kTarget,
          .window_ns = kWindow,
          .percentile = percentile,
          .keep_running = keep_running,
          .max_depth = 8};
}

// Ends the window that started at `*now` after `ios` completions within the target.
LatencyTarget::Step good_window(LatencyTarget& t, std::uint64_t* now, int ios = 10) {
  for (int i = 0; i < ios; ++i) EXPECT_EQ(t.completed(kTarget, *now), LatencyTarget::Step::kNone);
  *now += kWindow;
  return t.check(*now);
}

TEST(LatencyTarget, DoublesToTheDepthThenRunsOneFinalWindow) {
  std::uint64_t now = 0;
  LatencyTarget t(settings(), now);
  EXPECT_EQ(t.depth(), 1u);
  EXPECT_EQ(t.check(now + kWindow - 1), LatencyTarget::Step::kNone);  // the window is not over
  EXPECT_EQ(good_window(t, &now), LatencyTarget::Step::kNone);
  EXPECT_EQ(t.depth(), 2u);
  EXPECT_EQ(good_window(t, &now), LatencyTarget::Step::kNone);
  EXPECT_EQ(t.depth(), 4u);
  EXPECT_EQ(good_window(t, &now), LatencyTarget::Step::kNone);
  EXPECT_EQ(t.depth(), 8u);
  EXPECT_EQ(good_window(t, &now), LatencyTarget::Step::kFinalRun);  // 8 again: found
  EXPECT_EQ(t.depth(), 8u);
  EXPECT_EQ(good_window(t, &now), LatencyTarget::Step::kDone);
}

TEST(LatencyTarget, OneSlowIoRampsDownAtOnceWithPercentile100) {
  std::uint64_t now = 0;
  LatencyTarget t(settings(), now);
  for (int i = 0; i < 3; ++i) good_window(t, &now);
  ASSERT_EQ(t.depth(), 8u);
  EXPECT_EQ(t.completed(kTarget + 1, now + 10), LatencyTarget::Step::kRampedDown);
  EXPECT_EQ(t.depth(), 6u);  // bisected toward the last good depth, 4
  now += 10;
  // The failing depth is iodepth itself, so fio doubles again (capped at iodepth) rather than bisecting.
  EXPECT_EQ(good_window(t, &now), LatencyTarget::Step::kNone);
  EXPECT_EQ(t.depth(), 8u);
  EXPECT_EQ(good_window(t, &now), LatencyTarget::Step::kFinalRun);
  EXPECT_EQ(good_window(t, &now), LatencyTarget::Step::kDone);
}

TEST(LatencyTarget, ASlowIoAtDepthOneFailsTheJob) {
  LatencyTarget t(settings(), 0);
  EXPECT_EQ(t.completed(kTarget + 1, 5), LatencyTarget::Step::kFailed);
}

TEST(LatencyTarget, AWindowWithoutCompletionsLowersTheDepthButNeverFails) {
  std::uint64_t now = 0;
  LatencyTarget t(settings(), now);
  good_window(t, &now);
  ASSERT_EQ(t.depth(), 2u);
  now += kWindow;  // nothing completed: fio's 0/0 meets no percentile
  EXPECT_EQ(t.check(now), LatencyTarget::Step::kRampedDown);
  EXPECT_EQ(t.depth(), 1u);
  now += kWindow;  // again, at depth 1: a new window, not a failure
  EXPECT_EQ(t.check(now), LatencyTarget::Step::kNone);
  EXPECT_EQ(t.depth(), 1u);
}

TEST(LatencyTarget, APercentileCountsTheWindowsShare) {
  std::uint64_t now = 0;
  LatencyTarget t(settings(90.0), now);
  good_window(t, &now);
  ASSERT_EQ(t.depth(), 2u);
  // 1 of 10 over the target: 90 % within, enough.
  EXPECT_EQ(t.completed(kTarget + 1, now), LatencyTarget::Step::kNone);
  EXPECT_EQ(good_window(t, &now, 9), LatencyTarget::Step::kNone);
  EXPECT_EQ(t.depth(), 4u);
  // 2 of 10: 80 %, the depth goes back down.
  t.completed(kTarget + 1, now);
  t.completed(kTarget + 1, now);
  EXPECT_EQ(good_window(t, &now, 8), LatencyTarget::Step::kRampedDown);
  EXPECT_EQ(t.depth(), 3u);
}

TEST(LatencyTarget, LatencyRunKeepsAdjusting) {
  std::uint64_t now = 0;
  LatencyTarget t(settings(100.0, true), now);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(good_window(t, &now), LatencyTarget::Step::kNone);
  EXPECT_EQ(t.depth(), 8u);
}

TEST(LatencyTarget, ThreeSuccessesBelowTheFailingDepthTryItAgain) {
  std::uint64_t now = 0;
  LatencyTarget t(settings(100.0, true), now);
  good_window(t, &now);
  good_window(t, &now);
  ASSERT_EQ(t.depth(), 4u);
  t.completed(kTarget + 1, now);  // 4 fails: bisect between 2 and 4
  ASSERT_EQ(t.depth(), 3u);
  good_window(t, &now);  // (3 + 4) / 2: stays at 3
  good_window(t, &now);
  EXPECT_EQ(t.depth(), 3u);
  good_window(t, &now);  // the third success just below 4: the limit moves to 5, the depth to 4
  EXPECT_EQ(t.depth(), 4u);
}

}  // namespace
}  // namespace sluice
