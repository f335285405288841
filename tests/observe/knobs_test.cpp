#include "observe/knobs.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "common/error.h"
#include "knob_test_tree.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;
using testing::KnobTree;

std::string user_error_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const UserError& e) {
    return e.what();
  }
  return "(no UserError)";
}

TEST(KnobNames, VmKnobMapsUnderProcSysVm) {
  EXPECT_EQ(knob_path("vm.dirty_bytes", "", {"/p", "/s"}), "/p/sys/vm/dirty_bytes");
}

TEST(KnobNames, QueueKnobMapsUnderTheDevicesQueue) {
  EXPECT_EQ(knob_path("queue.wbt_lat_usec", "nvme0n1", {"/p", "/s"}), "/s/block/nvme0n1/queue/wbt_lat_usec");
}

TEST(KnobNames, QueueKnobWithoutDeviceIsRefused) {
  EXPECT_THAT(user_error_of([] { knob_path("queue.scheduler", "", {}); }), HasSubstr("needs a block device"));
}

TEST(KnobNames, UnknownKnobNamesTheNearestKnownOne) {
  EXPECT_THAT(user_error_of([] { check_knob_name("vm.dirty_byte"); }),
              HasSubstr("unknown kernel knob 'vm.dirty_byte'; did you mean vm.dirty_bytes?"));
}

TEST(KnobNames, KnobWithoutPrefixSuggestsThePrefixedName) {
  EXPECT_THAT(user_error_of([] { check_knob_name("wbt_lat_usec"); }), HasSubstr("did you mean queue.wbt_lat_usec?"));
}

TEST(KnobValues, BytesTakeSizeSuffixes) {
  EXPECT_EQ(normalize_knob_value("vm.dirty_bytes", "15M"), "15728640");
  EXPECT_EQ(normalize_knob_value("vm.dirty_background_bytes", "5m"), "5242880");
}

TEST(KnobValues, ZeroBytesIsRefusedWithTheRatioToUseInstead) {
  EXPECT_THAT(user_error_of([] { normalize_knob_value("vm.dirty_bytes", "0"); }), HasSubstr("set vm.dirty_ratio"));
}

TEST(KnobValues, RatioAbove100IsRefused) {
  EXPECT_THAT(user_error_of([] { normalize_knob_value("vm.dirty_ratio", "150"); }), HasSubstr("vm.dirty_ratio=150"));
}

TEST(KnobValues, WbtAcceptsMinusOneForTheKernelDefault) {
  EXPECT_EQ(normalize_knob_value("queue.wbt_lat_usec", "-1"), "-1");
  EXPECT_THAT(user_error_of([] { normalize_knob_value("queue.wbt_lat_usec", "-5"); }), HasSubstr("not a whole number"));
}

TEST(KnobValues, SchedulerOriginalIsTheBracketedEntry) {
  EXPECT_EQ(knob_value_from_file("queue.scheduler", "[mq-deadline] kyber none\n"), "mq-deadline");
  EXPECT_EQ(knob_value_from_file("queue.scheduler", "mq-deadline kyber [none]\n"), "none");
  EXPECT_EQ(knob_value_from_file("queue.scheduler", "none\n"), "none");
}

TEST(KnobRead, ReadsASyntheticTree) {
  KnobTree tree;
  EXPECT_EQ(read_knob("vm.dirty_ratio", "", tree.roots), "20");
  EXPECT_EQ(read_knob("queue.scheduler", "vda", tree.roots), "mq-deadline");
}

// The one test on the real machine: it reads, never writes.
TEST(KnobRead, ReadsTheRealDirtyRatio) {
  if (!std::filesystem::exists("/proc/sys/vm/dirty_ratio")) GTEST_SKIP() << "no /proc/sys/vm/dirty_ratio here";
  const std::string value = read_knob("vm.dirty_ratio");
  char* end = nullptr;
  const long ratio = std::strtol(value.c_str(), &end, 10);
  EXPECT_EQ(*end, '\0') << value;
  EXPECT_GE(ratio, 0);
  EXPECT_LE(ratio, 100);
}

TEST(KnobJournalPath, FollowsSluiceStateDir) {
  const char* old = std::getenv("SLUICE_STATE_DIR");
  const std::string saved = old ? old : "";
  ::setenv("SLUICE_STATE_DIR", "/tmp/state-x", 1);
  EXPECT_EQ(default_knob_journal_path(), "/tmp/state-x/knobs.journal");
  ::unsetenv("SLUICE_STATE_DIR");
  EXPECT_EQ(default_knob_journal_path(), "/var/lib/sluice/knobs.journal");
  if (old) ::setenv("SLUICE_STATE_DIR", saved.c_str(), 1);
}

TEST(KnobSession, SetWritesAndRestoreAllBringsTheOriginalBack) {
  KnobTree tree;
  KnobSession session(tree.options());
  session.set("vm.dirty_expire_centisecs", "1000");
  EXPECT_EQ(tree.vm("dirty_expire_centisecs"), "1000");
  EXPECT_TRUE(session.restore_all().empty());
  EXPECT_EQ(tree.vm("dirty_expire_centisecs"), "3000");
  EXPECT_FALSE(tree.journal_exists());
}

TEST(KnobSession, DestructorRestores) {
  KnobTree tree;
  {
    KnobSession session(tree.options());
    session.set("queue.nr_requests", "64", "vda");
    session.set("queue.scheduler", "none", "vda");
    EXPECT_EQ(tree.queue("scheduler"), "mq-deadline kyber [none]");
  }
  EXPECT_TRUE(tree.all_original());
  EXPECT_FALSE(tree.journal_exists());
}

TEST(KnobSession, ChangesReportOriginalAppliedAndRestored) {
  KnobTree tree;
  KnobSession session(tree.options());
  session.set("vm.dirty_bytes", "15M");
  session.set("queue.wbt_lat_usec", "75000", "vda");
  ASSERT_EQ(session.changes().size(), 2u);
  EXPECT_EQ(session.changes()[0].knob, "vm.dirty_bytes");
  EXPECT_EQ(session.changes()[0].original, "0");
  EXPECT_EQ(session.changes()[0].applied, "15728640");
  EXPECT_FALSE(session.changes()[0].restored);
  EXPECT_EQ(session.changes()[1].device, "vda");
  EXPECT_EQ(session.changes()[1].original, "2000");
  session.restore_all();
  EXPECT_TRUE(session.changes()[0].restored);
  EXPECT_TRUE(session.changes()[1].restored);
}

TEST(KnobSession, SettingTwiceKeepsTheFirstOriginal) {
  KnobTree tree;
  KnobSession session(tree.options());
  session.set("vm.dirty_writeback_centisecs", "100");
  session.set("vm.dirty_writeback_centisecs", "200");
  ASSERT_EQ(session.changes().size(), 1u);
  EXPECT_EQ(session.changes()[0].original, "500");
  EXPECT_EQ(session.changes()[0].applied, "200");
  session.restore_all();
  EXPECT_EQ(tree.vm("dirty_writeback_centisecs"), "500");
}

TEST(KnobSession, BytesOverRatioRestoresTheRatioWithoutWritingZeroBytes) {
  KnobTree tree;
  KnobSession session(tree.options());
  session.set("vm.dirty_bytes", "15M");
  session.set("vm.dirty_background_bytes", "5M");
  EXPECT_EQ(tree.vm("dirty_ratio"), "0");  // the kernel's rule, emulated
  EXPECT_TRUE(session.restore_all().empty());
  EXPECT_TRUE(tree.all_original());
  EXPECT_FALSE(tree.io->wrote("/dirty_bytes", "0"));
  EXPECT_FALSE(tree.io->wrote("/dirty_background_bytes", "0"));
}

TEST(KnobSession, RatioOverBytesRestoresTheBytes) {
  KnobTree tree;
  tree.set_vm("dirty_bytes", "268435456");
  tree.set_vm("dirty_ratio", "0");
  KnobSession session(tree.options());
  session.set("vm.dirty_ratio", "5");
  EXPECT_EQ(tree.vm("dirty_bytes"), "0");
  session.restore_all();
  EXPECT_EQ(tree.vm("dirty_bytes"), "268435456");
  EXPECT_EQ(tree.vm("dirty_ratio"), "0");
  EXPECT_TRUE(session.changes()[0].restored);
}

TEST(KnobSession, BothMembersOfAPairChangedStillRestoreExactly) {
  KnobTree tree;
  KnobSession session(tree.options());
  session.set("vm.dirty_bytes", "15M");
  session.set("vm.dirty_ratio", "7");
  session.set("vm.dirty_bytes", "20M");
  session.restore_all();
  EXPECT_TRUE(tree.all_original());
}

TEST(KnobSession, NonRootIsRefusedAndNothingChanges) {
  KnobTree tree;
  KnobSession session(tree.options(1000));
  EXPECT_EQ(user_error_of([&] { session.set("vm.dirty_bytes", "15M"); }), "changing vm.dirty_bytes needs root");
  EXPECT_TRUE(tree.all_original());
  EXPECT_FALSE(tree.journal_exists());
  EXPECT_TRUE(session.changes().empty());
}

TEST(KnobSession, UnknownSchedulerIsRefusedWithTheChoices) {
  KnobTree tree;
  KnobSession session(tree.options());
  EXPECT_THAT(user_error_of([&] { session.set("queue.scheduler", "bfq", "vda"); }),
              HasSubstr("vda offers mq-deadline, kyber, none"));
  EXPECT_TRUE(tree.all_original());
}

}  // namespace
}  // namespace sluice
