#include "observe/disk_stats.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace sluice {
namespace {

namespace fs = std::filesystem;

// A temporary directory holding a synthetic /sys tree and a real file whose st_dev the tree describes.
class DiskStatsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "sluice-disk-XXXXXX").string();
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    root_ = templ;
    sys_ = root_ / "sys";
    file_ = root_ / "data";
    std::ofstream(file_) << "x";
    struct stat st {};
    ASSERT_EQ(::stat(file_.c_str(), &st), 0);
    dev_key_ = std::to_string(major(st.st_dev)) + ":" + std::to_string(minor(st.st_dev));
    fs::create_directories(sys_ / "dev" / "block");
  }
  void TearDown() override { fs::remove_all(root_); }

  // Makes <sys>/devices/virtual/block/<rel> and links the file's device number to it.
  void link_device(const std::string& rel) {
    fs::create_directories(sys_ / "devices" / "virtual" / "block" / rel);
    fs::create_directory_symlink(fs::path("../../devices/virtual/block") / rel, sys_ / "dev" / "block" / dev_key_);
  }
  void write(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
  }

  fs::path root_, sys_, file_;
  std::string dev_key_;
};

TEST_F(DiskStatsTest, PartitionResolvesToItsDisk) {
  link_device("vdz/vdz1");
  write(sys_ / "devices/virtual/block/vdz/vdz1/partition", "1\n");
  EXPECT_EQ(devices_under({file_.string()}, sys_.string()), std::vector<std::string>{"vdz"});
}

TEST_F(DiskStatsTest, WholeDeviceKeepsItsName) {
  link_device("dm-3");
  EXPECT_EQ(devices_under({file_.string()}, sys_.string()), std::vector<std::string>{"dm-3"});
}

TEST_F(DiskStatsTest, UnknownDeviceIsSkipped) { EXPECT_TRUE(devices_under({file_.string()}, sys_.string()).empty()); }

TEST_F(DiskStatsTest, MissingFileCountsAsItsDirectory) {
  link_device("vdz");
  EXPECT_EQ(devices_under({(root_ / "nope" / "f").string()}, sys_.string()), std::vector<std::string>{"vdz"});
}

TEST_F(DiskStatsTest, MissingPathOnUnknownDeviceIsSkipped) {
  EXPECT_TRUE(devices_under({(root_ / "nope").string()}, sys_.string()).empty());
}

TEST_F(DiskStatsTest, SameDeviceListedOnce) {
  link_device("vdz");
  EXPECT_EQ(devices_under({file_.string(), root_.string()}, sys_.string()), std::vector<std::string>{"vdz"});
}

TEST_F(DiskStatsTest, ReadsAllCountersOfModernStatFile) {
  write(sys_ / "block/vdz/stat", "  100 2 800 50 200 3 1600 70 1 400 120 0 0 0 0 9 9\n");
  DiskCounters c;
  ASSERT_TRUE(read_disk_counters("vdz", c, sys_.string()));
  EXPECT_EQ(c.name, "vdz");
  EXPECT_EQ(c.read_ios, 100u);
  EXPECT_EQ(c.read_merges, 2u);
  EXPECT_EQ(c.read_sectors, 800u);
  EXPECT_EQ(c.read_ticks_ms, 50u);
  EXPECT_EQ(c.write_ios, 200u);
  EXPECT_EQ(c.write_merges, 3u);
  EXPECT_EQ(c.write_sectors, 1600u);
  EXPECT_EQ(c.write_ticks_ms, 70u);
  EXPECT_EQ(c.in_flight, 1u);
  EXPECT_EQ(c.io_ticks_ms, 400u);
  EXPECT_EQ(c.in_queue_ms, 120u);
}

TEST_F(DiskStatsTest, ReadsElevenFieldStatFile) {
  write(sys_ / "block/sdq/stat", "1 2 3 4 5 6 7 8 9 10 11\n");
  DiskCounters c;
  ASSERT_TRUE(read_disk_counters("sdq", c, sys_.string()));
  EXPECT_EQ(c.in_queue_ms, 11u);
}

TEST_F(DiskStatsTest, ShortStatFileFails) {
  write(sys_ / "block/sdq/stat", "1 2 3\n");
  DiskCounters c;
  EXPECT_FALSE(read_disk_counters("sdq", c, sys_.string()));
}

TEST_F(DiskStatsTest, MissingStatFileFails) {
  DiskCounters c;
  EXPECT_FALSE(read_disk_counters("nosuch", c, sys_.string()));
}

TEST(DiskUtilization, DifferencesAndUtilization) {
  DiskCounters before{"vdz", 10, 1, 80, 5, 20, 2, 160, 7, 0, 1000, 30};
  DiskCounters after{"vdz", 110, 3, 880, 55, 220, 5, 1760, 77, 2, 1500, 150};
  const DiskUtilization u = disk_utilization(before, after, 2'000'000'000);  // 2 s wall
  EXPECT_EQ(u.name, "vdz");
  EXPECT_EQ(u.read_ios, 100u);
  EXPECT_EQ(u.write_ios, 200u);
  EXPECT_EQ(u.read_merges, 2u);
  EXPECT_EQ(u.write_merges, 3u);
  EXPECT_EQ(u.read_sectors, 800u);
  EXPECT_EQ(u.write_sectors, 1600u);
  EXPECT_EQ(u.read_ticks_ms, 50u);
  EXPECT_EQ(u.write_ticks_ms, 70u);
  EXPECT_EQ(u.in_queue_ms, 120u);
  EXPECT_EQ(u.io_ticks_ms, 500u);
  EXPECT_DOUBLE_EQ(u.util_percent, 25.0);
}

TEST(DiskUtilization, CappedAtHundredPercent) {
  DiskCounters before{}, after{};
  after.io_ticks_ms = 3000;
  EXPECT_DOUBLE_EQ(disk_utilization(before, after, 1'000'000'000).util_percent, 100.0);
}

TEST(DiskUtilization, ZeroWallTimeGivesZero) {
  DiskCounters before{}, after{};
  after.io_ticks_ms = 5;
  EXPECT_DOUBLE_EQ(disk_utilization(before, after, 0).util_percent, 0.0);
}

TEST(DiskUtilization, CounterResetGivesZeroNotWrap) {
  DiskCounters before{}, after{};
  before.read_ios = 50;
  after.read_ios = 10;
  EXPECT_EQ(disk_utilization(before, after, 1'000'000'000).read_ios, 0u);
}

TEST(DiskStatsReal, DeviceUnderTmpHasCounters) {
  const auto names = devices_under({fs::temp_directory_path().string()});
  if (names.empty()) GTEST_SKIP() << "no block device under " << fs::temp_directory_path() << " (tmpfs or overlay)";
  DiskCounters c;
  EXPECT_TRUE(read_disk_counters(names.front(), c)) << names.front();
}

}  // namespace
}  // namespace sluice
