// The lab's record: its lines, what a lab's state is from its processes, the record written and read back.
#include "lab/lab_record.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "common/error.h"
#include "support/temp_dir.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;

constexpr const char* kFullRecord =
    "# sluice lab v1\n"
    "up 100 5000\n"
    "mountpoint /mnt/my lab\n"
    "dir /var/lib/sluice/labs/lab.100.7\n"
    "model raid-wb\n"
    "fs ext4\n"
    "size 67108864\n"
    "daemon 102 5003\n"
    "fuse 41\n"
    "loop /dev/loop3\n"
    "mount\n"
    "ready\n";

TEST(LabRecord, ParsesEveryLine) {
  const LabRecord r = parse_lab_record(kFullRecord, "/x/lab.100.7.lab");
  EXPECT_EQ(r.file, "/x/lab.100.7.lab");
  EXPECT_EQ(r.up_pid, 100);
  EXPECT_EQ(r.up_start, 5000u);
  EXPECT_EQ(r.mountpoint, "/mnt/my lab");  // a path keeps its spaces: it is the rest of the line
  EXPECT_EQ(r.dir, "/var/lib/sluice/labs/lab.100.7");
  EXPECT_EQ(r.model, "raid-wb");
  EXPECT_EQ(r.fs, "ext4");
  EXPECT_EQ(r.size, 67108864u);
  EXPECT_EQ(r.daemon_pid, 102);
  EXPECT_EQ(r.daemon_start, 5003u);
  ASSERT_TRUE(r.fuse_connection.has_value());
  EXPECT_EQ(*r.fuse_connection, 41u);
  EXPECT_EQ(r.loop_device, "/dev/loop3");
  EXPECT_TRUE(r.mounting);
  EXPECT_TRUE(r.ready);
  EXPECT_EQ(r.fuse_mount(), "/var/lib/sluice/labs/lab.100.7/fuse");
  EXPECT_EQ(r.device(), "/dev/loop3");
}

TEST(LabRecord, AKilledLabUpLeavesARecordOfWhatItBegan) {
  const LabRecord r = parse_lab_record(
      "# sluice lab v1\nup 100 5000\nmountpoint /mnt/lab\ndir /s/labs/lab.1\n"
      "daemon 102 5003\n",
      "f");
  EXPECT_FALSE(r.ready);
  EXPECT_FALSE(r.fuse_connection.has_value());
  EXPECT_TRUE(r.loop_device.empty());
  EXPECT_EQ(r.daemon_pid, 102);
}

TEST(LabRecord, WithoutALoopDeviceTheDaemonIsMountedAtDir) {
  const LabRecord r = parse_lab_record("up 1 2\nmountpoint /home/u/lab\ndir /s/labs/lab.1\nfs fuse\nready\n", "f");
  EXPECT_EQ(r.fuse_mount(), "/home/u/lab");
  EXPECT_EQ(r.device(), "/home/u/lab/device");
}

TEST(LabRecord, ARecordWithoutItsFirstLinesIsRefused) {
  EXPECT_THROW(parse_lab_record("mountpoint /mnt/lab\ndir /d\n", "f"), UserError);
  EXPECT_THROW(parse_lab_record("up 1 2\ndir /d\n", "f"), UserError);
  try {
    parse_lab_record("up 1\nmountpoint /m\ndir /d\n", "rec.lab");
    FAIL();
  } catch (const UserError& e) {
    EXPECT_THAT(e.what(), HasSubstr("rec.lab"));
    EXPECT_THAT(e.what(), HasSubstr("start time"));
  }
}

TEST(LabRecord, UnknownLinesAreSkipped) {
  const LabRecord r = parse_lab_record("up 1 2\nmountpoint /m\ndir /d\nsomething new\nready\n", "f");
  EXPECT_TRUE(r.ready);
}

TEST(LabState, FromTheRecordAndItsProcesses) {
  LabRecord r;
  r.ready = true;
  EXPECT_EQ(classify_lab(r, false, true), LabState::kUp);  // lab up has ended: normal once the lab is up
  EXPECT_EQ(classify_lab(r, false, false), LabState::kDaemonGone);
  r.ready = false;
  EXPECT_EQ(classify_lab(r, true, true), LabState::kStarting);
  EXPECT_EQ(classify_lab(r, false, true), LabState::kUpKilled);  // its daemon is then stopped by restore
  EXPECT_EQ(classify_lab(r, false, false), LabState::kUpKilled);
  EXPECT_STREQ(lab_state_name(LabState::kDaemonGone), "daemon gone");
}

TEST(LabJournal, WritesARecordThatReadsBack) {
  testing::TempDir dir;
  {
    LabJournal journal(dir.path(), "lab.1.2",
                       {{"up", "10 20"}, {"mountpoint", "/mnt/lab"}, {"dir", dir.file("lab.1.2")}});
    EXPECT_FALSE(std::filesystem::exists(dir.file("lab.1.2.lab.tmp")));  // renamed into place
    journal.append("ready");
    EXPECT_EQ(journal.path(), dir.file("lab.1.2.lab"));
    EXPECT_THROW(journal.append("loop", "a\nb"), UserError);
  }
  std::ofstream(dir.file("broken.lab")) << "not a record\n";
  std::ofstream(dir.file("other.txt")) << "up 1 2\n";
  std::vector<std::string> problems;
  const std::vector<LabRecord> records = read_lab_records({dir.path(), dir.file("missing")}, problems);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].up_pid, 10);
  EXPECT_TRUE(records[0].ready);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_THAT(problems[0], HasSubstr("broken.lab"));
}

TEST(LabJournal, ANameTakenIsRefused) {
  testing::TempDir dir;
  LabJournal first(dir.path(), "lab.1.2", {{"up", "1 2"}});
  EXPECT_THROW(LabJournal(dir.path(), "lab.1.2", {{"up", "1 2"}}), UserError);
  EXPECT_FALSE(std::filesystem::exists(dir.file("lab.1.2.lab.tmp")));
}

TEST(LabJournal, DraftsOfAKilledLabUpAreFound) {
  testing::TempDir dir;
  std::ofstream(dir.file("lab.4242.9.lab.tmp")) << "# sluice lab v1\nup 4242 77\nmountpoint /m\ndir /d\n";
  dir.make_file("lab.4343.9.lab.tmp", 0);  // killed before its lines
  std::vector<LabRecord> drafts = read_lab_record_drafts({dir.path()});
  ASSERT_EQ(drafts.size(), 2u);
  std::sort(drafts.begin(), drafts.end(), [](const LabRecord& a, const LabRecord& b) { return a.up_pid < b.up_pid; });
  EXPECT_EQ(drafts[0].up_pid, 4242);
  EXPECT_EQ(drafts[0].up_start, 77u);
  EXPECT_EQ(drafts[1].up_pid, 4343);  // from its name
  EXPECT_EQ(drafts[1].up_start, 0u);
  std::vector<std::string> problems;
  EXPECT_TRUE(read_lab_records({dir.path()}, problems).empty());  // a draft is no record
  EXPECT_TRUE(problems.empty());
}

}  // namespace
}  // namespace sluice
