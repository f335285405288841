// Safety checks against real loop devices: blank, ext4, partition table, mounted. Needs root and losetup;
// everything is created in a temporary directory and detached / unmounted in teardown.
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdio>

#include "job/job_spec.h"
#include "support/loop_device.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"
#include "targets/safety.h"
#include "targets/target_file.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;

using testing::have_tool;

int run(const std::string& command, std::string* output = nullptr) { return testing::run_command(command, output); }

class LoopDeviceSafety : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string why_not = loop_.attach(dir_.file("disk.img"), 64 << 20);
    if (!why_not.empty()) GTEST_SKIP() << why_not;
    device_ = loop_.path();
  }

  void TearDown() override {
    if (!mount_point_.empty()) run("umount " + mount_point_);  // loop_ detaches the device afterwards
  }

  void make_ext4() {
    SLUICE_REQUIRE(kMkfsExt4);
    ASSERT_EQ(run("mkfs.ext4 -q -F " + device_), 0);
  }

  // A DOS partition table with one Linux partition: sfdisk, else parted, else a hand-written MBR.
  void make_partition_table() {
    if (have_tool("sfdisk")) {
      ASSERT_EQ(run("echo ',,83' | sfdisk -q " + device_), 0);
    } else if (have_tool("parted")) {
      ASSERT_EQ(run("parted -s " + device_ + " mklabel msdos mkpart primary 1MiB 100%"), 0);
    } else {
      write_mbr();
    }
  }

  void write_mbr() {
    std::array<unsigned char, 512> mbr{};
    unsigned char* entry = mbr.data() + 446;
    entry[4] = 0x83;  // Linux
    std::uint32_t start = 2048, sectors = (64u << 20) / 512 - 2048;
    for (int i = 0; i < 4; ++i) entry[8 + i] = static_cast<unsigned char>(start >> (8 * i));
    for (int i = 0; i < 4; ++i) entry[12 + i] = static_cast<unsigned char>(sectors >> (8 * i));
    mbr[510] = 0x55;
    mbr[511] = 0xAA;
    int fd = ::open(device_.c_str(), O_WRONLY);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(pwrite(fd, mbr.data(), mbr.size(), 0), 512);
    fsync(fd);
    ::close(fd);
  }

  TargetFile device_target() const { return TargetFile{.path = device_, .is_block_device = true}; }

  testing::TempDir dir_;
  testing::LoopDevice loop_;  // after dir_: detached before the image's directory goes
  std::string device_;
  std::string mount_point_;
};

TEST_F(LoopDeviceSafety, BlankDeviceHasNoHazard) {
  EXPECT_EQ(destructive_write_hazard(device_), std::nullopt);
  EXPECT_NO_THROW(check_write_safety(device_target(), {}));
}

TEST_F(LoopDeviceSafety, DeviceResolvesToItsSize) {
  JobSpec job;
  job.target.filenames = {device_};
  auto targets = resolve_targets(job, 0);
  EXPECT_TRUE(targets[0].is_block_device);
  EXPECT_EQ(targets[0].size, 64u << 20);
  EXPECT_EQ(targets[0].region_length, 64u << 20);
}

TEST_F(LoopDeviceSafety, Ext4IsFoundAndNamed) {
  make_ext4();
  auto hazard = destructive_write_hazard(device_);
  ASSERT_TRUE(hazard.has_value());
  EXPECT_THAT(*hazard, HasSubstr(device_));
  EXPECT_THAT(*hazard, HasSubstr("ext4"));
}

TEST_F(LoopDeviceSafety, Ext4RefusalSaysAllowDestructiveOverrides) {
  make_ext4();
  try {
    check_write_safety(device_target(), {});
    FAIL() << "no refusal";
  } catch (const UserError& e) {
    EXPECT_THAT(e.what(), HasSubstr(device_));
    EXPECT_THAT(e.what(), HasSubstr("--allow-destructive"));
  }
}

TEST_F(LoopDeviceSafety, AllowDestructiveOverridesTheRefusal) {
  make_ext4();
  EXPECT_NO_THROW(check_write_safety(device_target(), {.allow_destructive = true}));
}

TEST_F(LoopDeviceSafety, PartitionTableIsRefused) {
  make_partition_table();
  auto hazard = destructive_write_hazard(device_);
  ASSERT_TRUE(hazard.has_value());
  EXPECT_THAT(*hazard, HasSubstr(device_));
  EXPECT_THAT(*hazard, HasSubstr("partition table"));
}

TEST_F(LoopDeviceSafety, MountedDeviceIsRefusedAsMounted) {
  make_ext4();
  std::string mnt = dir_.file("mnt");
  std::filesystem::create_directory(mnt);
  if (run("mount " + device_ + " " + mnt) != 0) GTEST_SKIP() << "cannot mount ext4 here";
  mount_point_ = mnt;
  auto hazard = destructive_write_hazard(device_);
  ASSERT_TRUE(hazard.has_value());
  EXPECT_THAT(*hazard, HasSubstr(device_ + " is mounted on " + mnt));
}

}  // namespace
}  // namespace sluice
