// --try=auto's set (issue 35) and the automatic writer count, from fabricated limits, queues and speeds.
#include "method/interfere_auto.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "method/interfere_writers.h"

namespace sluice {
namespace {

using ::testing::ElementsAre;

std::vector<std::string> texts(const std::vector<std::vector<KnobSetting>>& trials) {
  std::vector<std::string> out;
  for (const auto& t : trials) out.push_back(trial_text(t));
  return out;
}

DirtyLimits limit_of_mib(std::uint64_t mib) {
  DirtyLimits d;
  d.limit_bytes = mib << 20;
  d.background_bytes = d.limit_bytes / 2;
  return d;
}

TEST(TryAuto, TheDocumentedSetForALoopDevice) {
  const QueueState q{.scheduler = "none",
                     .schedulers = {"none", "mq-deadline", "kyber", "bfq"},
                     .wbt_lat_usec = "2000",
                     .nr_requests = "128"};
  EXPECT_THAT(texts(auto_trials(limit_of_mib(4600), q)),
              ElementsAre("vm.dirty_bytes=256M,vm.dirty_background_bytes=64M",
                          "vm.dirty_bytes=64M,vm.dirty_background_bytes=16M",
                          "vm.dirty_bytes=15M,vm.dirty_background_bytes=5M", "queue.wbt_lat_usec=0",
                          "queue.scheduler=bfq", "queue.scheduler=mq-deadline", "queue.nr_requests=32"));
}

TEST(TryAuto, OnlyStepsBelowTheLimitAndWbtTurnedOnWhenOff) {
  const QueueState q{
      .scheduler = "mq-deadline", .schedulers = {"mq-deadline", "none"}, .wbt_lat_usec = "0", .nr_requests = "32"};
  EXPECT_THAT(texts(auto_trials(limit_of_mib(100), q)), ElementsAre("vm.dirty_bytes=64M,vm.dirty_background_bytes=16M",
                                                                    "vm.dirty_bytes=15M,vm.dirty_background_bytes=5M",
                                                                    "queue.wbt_lat_usec=2000", "queue.scheduler=none"));
}

TEST(TryAuto, WithoutADeviceOnlyTheVmSteps) { EXPECT_EQ(auto_trials(limit_of_mib(4600), QueueState{}).size(), 3u); }

TEST(BackgroundWriters, OneWhenItReachesTheThrottlePointInAThirdOfThePhase) {
  // 1 GiB/s, 3 GiB to the throttle point, a 30 s phase: 3 s, well within 10 s.
  EXPECT_EQ(choose_writers(1024.0 * 1048576, 3ull << 30, std::chrono::seconds(30), 4), 1u);
}

TEST(BackgroundWriters, MoreWhenOneIsTooSlow) {
  // 150 MiB/s, 3000 MiB, 10 s of a 30 s phase: 1500 MiB per writer -> 2 writers.
  EXPECT_EQ(choose_writers(150.0 * 1048576, 3000ull << 20, std::chrono::seconds(30), 4), 2u);
  EXPECT_EQ(choose_writers(10.0 * 1048576, 3000ull << 20, std::chrono::seconds(30), 4), 4u);  // capped
  EXPECT_EQ(choose_writers(0, 3000ull << 20, std::chrono::seconds(30), 4), 1u);               // not measured
}

}  // namespace
}  // namespace sluice
