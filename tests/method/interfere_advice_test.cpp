// The mechanism and the recommendation of `sluice interfere` (issue 35) from fabricated runs: a knob is recommended
// only when its effect repeated, with its cost to the copy; a one-off is said to be one; when nothing helps, the
// next knobs are offered.
#include "method/interfere_advice.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace sluice {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr double kAdviceTestMiB = 1048576.0;

TrialRun run(const char* knob, const char* value, std::uint32_t threads, double base_iops, double trial_iops,
             double base_bg_mib = 250, double trial_bg_mib = 216) {
  TrialRun r;
  r.settings = {{knob, value}};
  r.threads = threads;
  r.base_iops = base_iops;
  r.trial_iops = trial_iops;
  r.base_fsync_p99_ns = 400'000'000;
  r.trial_fsync_p99_ns = trial_iops > base_iops ? 40'000'000 : 400'000'000;
  r.base_bg_bps = base_bg_mib * kAdviceTestMiB;
  r.trial_bg_bps = trial_bg_mib * kAdviceTestMiB;
  return r;
}

Observed flooded() {
  Observed o;
  o.flooded = true;
  o.seconds_at_limit = 25;
  o.phase_seconds = 30;
  o.slowdown = 23;
  o.peak_writeback_bytes = 60ull << 20;
  o.peak_device_queue = 30;
  o.filesystem = "ext4";
  o.mount_options = "rw,relatime";
  o.queue = {.scheduler = "none",
             .schedulers = {"none", "mq-deadline", "kyber", "bfq"},
             .wbt_lat_usec = "2000",
             .nr_requests = "128"};
  o.limits.limit_bytes = 4600ull << 20;
  o.limits.background_bytes = 2300ull << 20;
  return o;
}

TEST(TrialJudgement, HelpedNeedsAQuarterMoreIopsAndNoWorseP99) {
  EXPECT_EQ(judge_run(run("queue.scheduler", "bfq", 1, 20, 30)), TrialEffect::kHelped);
  EXPECT_EQ(judge_run(run("queue.scheduler", "bfq", 1, 20, 24)), TrialEffect::kNoChange);
  EXPECT_EQ(judge_run(run("queue.scheduler", "bfq", 1, 20, 15)), TrialEffect::kHurt);
  TrialRun worse_tail = run("queue.scheduler", "bfq", 1, 20, 30);
  worse_tail.trial_fsync_p99_ns = 900'000'000;
  EXPECT_EQ(judge_run(worse_tail), TrialEffect::kNoChange);
  EXPECT_EQ(judge_run(run("queue.scheduler", "bfq", 1, 0, 5)), TrialEffect::kHelped);  // a starved baseline
  EXPECT_EQ(judge_run(run("queue.scheduler", "bfq", 1, 20, 0)), TrialEffect::kHurt);   // a starved trial
}

TEST(Advice, ARepeatedEffectIsRecommendedWithItsCostToTheCopy) {
  const Advice a = advise(flooded(),
                          {run("queue.scheduler", "bfq", 1, 22, 440), run("queue.scheduler", "bfq", 10, 100, 800),
                           run("vm.dirty_bytes", "15M", 1, 22, 28), run("vm.dirty_bytes", "15M", 10, 100, 90)},
                          {"queue.scheduler=bfq", "vm.dirty_bytes=15M"});
  EXPECT_TRUE(a.recommended);
  EXPECT_EQ(trial_text(a.best), "queue.scheduler=bfq");
  // Geometric mean of 20x and 8x: 12.65x; the copy ran 216 instead of 250 MiB/s: 14% less.
  EXPECT_THAT(a.recommendation, HasSubstr("Recommendation: queue.scheduler=bfq. The fsync'd writes ran 12.65x as fast "
                                          "beside the flood in 2 of 2 runs; it costs the copy's throughput 14% "
                                          "(250 MiB/s -> 216 MiB/s)"));
  EXPECT_THAT(a.recommendation, Not(HasSubstr("Next to try")));
}

TEST(Advice, AOneOffIsNotARecommendation) {
  const Advice a = advise(flooded(), {run("queue.scheduler", "bfq", 1, 22, 440)}, {"queue.scheduler=bfq"});
  EXPECT_FALSE(a.recommended);
  EXPECT_THAT(a.recommendation, HasSubstr("queue.scheduler=bfq helped once: a one-off, not a recommendation"));
  EXPECT_THAT(a.recommendation, HasSubstr("No tried knob helped repeatably"));
}

TEST(Advice, WhenNothingHelpsTheNextKnobsAreOffered) {
  const Advice a =
      advise(flooded(), {run("vm.dirty_bytes", "15M", 1, 22, 20), run("vm.dirty_bytes", "15M", 10, 100, 50)},
             {"vm.dirty_bytes=15M,vm.dirty_background_bytes=5M"});
  EXPECT_FALSE(a.recommended);
  EXPECT_THAT(a.recommendation, HasSubstr("No tried knob helped repeatably: vm.dirty_bytes=15M hurt in 1 of 2 runs"));
  // The scheduler is none: bfq first; the tried step is not offered again.
  ASSERT_FALSE(a.next_to_try.empty());
  EXPECT_EQ(a.next_to_try.front(), "queue.scheduler=bfq");
  EXPECT_THAT(a.recommendation, HasSubstr("Next to try: --try queue.scheduler=bfq"));
  EXPECT_THAT(a.recommendation, Not(HasSubstr("--try vm.dirty_bytes=15M,")));
  EXPECT_THAT(a.recommendation, HasSubstr("--try queue.wbt_lat_usec=0"));
}

TEST(Advice, NoRecommendationWithoutAVerifiedFlood) {
  Observed o = flooded();
  o.flooded = false;
  const Advice a = advise(o, {run("queue.scheduler", "bfq", 1, 22, 440), run("queue.scheduler", "bfq", 10, 100, 800)},
                          {"queue.scheduler=bfq"});
  EXPECT_FALSE(a.recommended);
  EXPECT_THAT(a.recommendation, HasSubstr("the loaded phase did not flood"));
  EXPECT_THAT(a.mechanism, HasSubstr("The flood was not verified"));
  EXPECT_THAT(a.mechanism, HasSubstr("Even so the foreground was slowed: below the dirty limit"));  // 23x
}

TEST(Advice, ASlowdownWhileTheDeviceBarelyWroteIsNotBlamedOnTheDevice) {
  Observed o = flooded();
  o.flooded = false;
  o.writer_bps = 119 * kAdviceTestMiB;
  o.device_bps = 8 * kAdviceTestMiB;
  EXPECT_THAT(advise(o, {}, {}).mechanism, HasSubstr("while the device wrote only 8 MiB/s (the writers 119 MiB/s): the "
                                                     "flood competed mostly for the CPU and the filesystem"));
}

TEST(Advice, TheMechanismNamesWhatWasObserved) {
  const Advice a = advise(flooded(), {}, {});
  EXPECT_THAT(a.mechanism, HasSubstr("stayed there 25 s of the 30 s phase"));
  EXPECT_THAT(a.mechanism, HasSubstr("up to 60 MiB under writeback"));
  EXPECT_THAT(a.mechanism, HasSubstr("data=ordered"));
  EXPECT_THAT(a.mechanism, HasSubstr("WBT) is on (2000 us target)"));
  EXPECT_THAT(a.mechanism, HasSubstr("The scheduler is none"));
  Observed starved = flooded();
  starved.starved = true;
  EXPECT_THAT(advise(starved, {}, {}).mechanism, HasSubstr("Result: the foreground was starved"));
  EXPECT_THAT(a.recommendation, HasSubstr("No knob was tried"));
}

TEST(Advice, JsonNamesTheRecommendedTrial) {
  const nlohmann::json j = advice_json(
      advise(flooded(), {run("queue.scheduler", "bfq", 1, 22, 440), run("queue.scheduler", "bfq", 10, 100, 800)}, {}));
  EXPECT_EQ(j["recommended"], "queue.scheduler=bfq");
  EXPECT_EQ(j["trials"][0]["runs"], 2);
  EXPECT_EQ(j["trials"][0]["recommended"], true);
}

}  // namespace
}  // namespace sluice
