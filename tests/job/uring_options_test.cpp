// fio's io_uring engine options are parsed into JobSpec (no longer refused) and documented.
#include <gtest/gtest.h>

#include "job/option_table.h"

namespace sluice {
namespace {

JobSpec with(std::string_view name, std::string_view value) {
  JobSpec job;
  apply_option(job, name, value, SourcePos{});
  return job;
}

TEST(UringOptions, DefaultsRegisterFilesAndBuffersWithoutPolling) {
  const JobSpec job;
  EXPECT_TRUE(job.engine.uring.registerfiles);
  EXPECT_TRUE(job.engine.uring.fixedbufs);
  EXPECT_FALSE(job.engine.uring.sqthread_poll);
  EXPECT_EQ(job.engine.uring.sqthread_poll_cpu, -1);
  EXPECT_FALSE(job.engine.rw_flags.hipri);
  EXPECT_TRUE(job.engine.uring.nonvectored);
  EXPECT_EQ(job.engine.uring.force_async, 0u);
}

TEST(UringOptions, RegistrationTogglesMatchFiosDefaults) {
  EXPECT_FALSE(with("registerfiles", "0").engine.uring.registerfiles);
  EXPECT_FALSE(with("fixedbufs", "0").engine.uring.fixedbufs);
  EXPECT_TRUE(with("fixedbufs", "1").engine.uring.fixedbufs);
}

TEST(UringOptions, FlagsWithoutValueTurnOn) {
  EXPECT_TRUE(with("sqthread_poll", "").engine.uring.sqthread_poll);
  EXPECT_TRUE(with("hipri", "").engine.rw_flags.hipri);
}

TEST(UringOptions, SqthreadPollCpuAndForceAsyncTakeNumbers) {
  EXPECT_EQ(with("sqthread_poll_cpu", "1").engine.uring.sqthread_poll_cpu, 1);
  EXPECT_EQ(with("force_async", "4").engine.uring.force_async, 4u);
  EXPECT_THROW(with("sqthread_poll_cpu", "x"), UserError);
}

TEST(UringOptions, NonvectoredAcceptsFiosDetectValue) {
  EXPECT_FALSE(with("nonvectored", "0").engine.uring.nonvectored);
  EXPECT_TRUE(with("nonvectored", "-1").engine.uring.nonvectored);
}

// The RWF flag options io_uring shares with pvsync2 and libaio.
TEST(UringOptions, RwFlagOptionsParse) {
  EXPECT_TRUE(with("nowait", "1").engine.rw_flags.nowait);
  EXPECT_TRUE(with("uncached", "1").engine.rw_flags.uncached);
  EXPECT_FALSE(with("uncached", "0").engine.rw_flags.uncached);
  EXPECT_TRUE(with("userspace_reap", "1").engine.libaio.userspace_reap);
  EXPECT_EQ(with("hipri_percentage", "30").engine.rw_flags.hipri_percentage, 30u);
  EXPECT_EQ(JobSpec{}.engine.rw_flags.hipri_percentage, 100u);
  EXPECT_THROW(with("hipri_percentage", "101"), UserError);
  EXPECT_THROW(with("nowait", "maybe"), UserError);
}

TEST(UringOptions, EachHasHelpAndIsSupported) {
  for (const char* name :
       {"registerfiles", "fixedbufs", "sqthread_poll", "sqthread_poll_cpu", "hipri", "nonvectored", "force_async"}) {
    const OptionDef* def = find_option(name);
    ASSERT_NE(def, nullptr) << name;
    EXPECT_TRUE(def->supported) << name;
    EXPECT_FALSE(def->help.empty()) << name;
    EXPECT_NE(render_option_help(name).find("io_uring"), std::string::npos) << name;
  }
}

}  // namespace
}  // namespace sluice
