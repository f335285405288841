#include "lab/queueing.h"

#include <gtest/gtest.h>

#include <cmath>

namespace sluice {
namespace {

constexpr double kTight = 1e-9;

TEST(ClosedLoop, BelowTheKneeEachRequestRunsAlone) {
  const ClosedLoopBounds b{Seconds(0.001), 4000};  // 4 servers of 1 ms
  EXPECT_NEAR(closed_loop_iops(b, 1), 1000, kTight);
  EXPECT_NEAR(closed_loop_latency(b, 1).count(), 0.001, kTight);
  EXPECT_NEAR(closed_loop_iops(b, 3), 3000, kTight);
  EXPECT_NEAR(closed_loop_latency(b, 3).count(), 0.001, kTight);
}

TEST(ClosedLoop, AboveTheKneeLatencyGrowsWithDepth) {
  const ClosedLoopBounds b{Seconds(0.001), 4000};
  EXPECT_NEAR(closed_loop_iops(b, 32), 4000, kTight);
  EXPECT_NEAR(closed_loop_latency(b, 32).count(), 0.008, kTight);  // q S / c = 32 * 1 ms / 4
  EXPECT_NEAR(knee_depth(b), 4, kTight);
}

TEST(ErlangC, KnownValues) {
  EXPECT_NEAR(erlang_c(1, 0.5), 0.5, kTight);        // one server: P(wait) = rho
  EXPECT_NEAR(erlang_c(2, 1.0), 1.0 / 3.0, kTight);  // a = 1, c = 2
  // c = 3, a = 2: B = (8/6) / (1 + 2 + 2 + 8/6) = 4/19; C = 3B / (3 - 2(1 - B)) = (12/19) / (27/19) = 4/9
  EXPECT_NEAR(erlang_c(3, 2.0), 4.0 / 9.0, kTight);
}

TEST(OpenLoop, MM1AndMD1WaitsAreTheTextbookOnes) {
  // M/M/1, S = 1 ms, rho = 0.5: Wq = rho S / (1 - rho) = 1 ms; M/D/1 (scv 0) half of it (Pollaczek-Khinchine).
  EXPECT_NEAR(mmc_wait(500, Seconds(0.001), 1).count(), 0.001, kTight);
  EXPECT_NEAR(mgc_wait(500, Seconds(0.001), 1, 0).count(), 0.0005, kTight);
  EXPECT_TRUE(std::isinf(mmc_wait(1000, Seconds(0.001), 1).count()));
  EXPECT_EQ(mmc_wait(0, Seconds(0.001), 4).count(), 0);
}

TEST(OpenLoop, MMcWaitIsErlangCOverTheSpareCapacity) {
  // c = 2, S = 1 ms, lambda = 1000/s: a = 1, C = 1/3, Wq = C S / (c - a) = 1/3 ms.
  EXPECT_NEAR(mmc_wait(1000, Seconds(0.001), 2).count(), 0.001 / 3, kTight);
}

}  // namespace
}  // namespace sluice
