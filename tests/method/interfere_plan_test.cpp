// Which --try trials can run (root, known knobs, knob files), and the background file's size.
#include <gtest/gtest.h>

#include "common/error.h"
#include "method/interfere.h"
#include "observe/knob_test_tree.h"

namespace sluice {
namespace {

constexpr std::uint64_t kPlanMiB = 1ull << 20;

InterfereOptions options_with(const std::vector<std::vector<KnobSetting>>& tries, testing::KnobTree& tree, uid_t euid) {
  InterfereOptions o;
  o.tries = tries;
  o.threads = {1, 10};
  o.knobs = tree.options(euid);
  return o;
}

TEST(InterferePlan, WithoutRootEveryTrialIsSkippedWithReason) {
  testing::KnobTree tree;
  const auto trials = plan_trials(options_with({{{"vm.dirty_bytes", "15M"}}}, tree, 1000), "vda");
  ASSERT_EQ(trials.size(), 2u);  // one per thread count
  for (const TrialResult& t : trials) EXPECT_NE(t.skipped_reason.find("needs root"), std::string::npos);
  EXPECT_TRUE(tree.all_original());
}

TEST(InterferePlan, AsRootKnownKnobsRun) {
  testing::KnobTree tree;
  const auto trials =
      plan_trials(options_with({{{"vm.dirty_bytes", "15M"}}, {{"queue.scheduler", "none"}}}, tree, 0), "vda");
  ASSERT_EQ(trials.size(), 4u);
  for (const TrialResult& t : trials) EXPECT_EQ(t.skipped_reason, "");
}

TEST(InterferePlan, UnknownKnobSkipsOnlyItsTrial) {
  testing::KnobTree tree;
  const auto trials =
      plan_trials(options_with({{{"vm.dirty_byte", "15M"}}, {{"vm.dirty_bytes", "15M"}}}, tree, 0), "vda");
  ASSERT_EQ(trials.size(), 4u);
  EXPECT_NE(trials[0].skipped_reason.find("did you mean"), std::string::npos);
  EXPECT_EQ(trials[2].skipped_reason, "");
}

TEST(InterferePlan, QueueKnobMissingOnThisKernelIsSkipped) {
  testing::KnobTree tree;
  const auto trials = plan_trials(options_with({{{"queue.wbt_lat_usec", "2000"}}}, tree, 0), "vdz");
  EXPECT_NE(trials.at(0).skipped_reason.find("does not exist"), std::string::npos);
}

TEST(BackgroundSize, IsAboveTheDirtyLimit) {
  DirtyLimits d;
  d.limit_bytes = 400 * kPlanMiB;
  EXPECT_EQ(background_size(d, 100'000 * kPlanMiB, 256 * kPlanMiB), 500 * kPlanMiB);
}

TEST(BackgroundSize, IsCappedByFreeSpaceLessMargin) {
  DirtyLimits d;
  d.limit_bytes = 4000 * kPlanMiB;
  // 3000 MiB free - 256 MiB foreground - 1024 MiB margin
  EXPECT_EQ(background_size(d, 3000 * kPlanMiB, 256 * kPlanMiB), 1720 * kPlanMiB);
}

TEST(BackgroundSize, RefusesWhenNothingFits) {
  DirtyLimits d;
  d.limit_bytes = 400 * kPlanMiB;
  EXPECT_THROW(background_size(d, 1100 * kPlanMiB, 256 * kPlanMiB), UserError);
}

}  // namespace
}  // namespace sluice
