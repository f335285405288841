// Mounts, swap, holders and partitions of a block device, read from a synthetic /proc and /sys.
#include "observe/block_device_usage.h"

#include <gtest/gtest.h>
#include <sys/sysmacros.h>

#include <filesystem>
#include <fstream>

#include "support/temp_dir.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;

class BlockDeviceUsage : public ::testing::Test {
 protected:
  void SetUp() override {
    roots_.proc_root = dir_.file("proc");
    roots_.sys_root = dir_.file("sys");
    fs::create_directories(dir_.file("proc/self"));
    fs::create_directories(dir_.file("sys/dev/block/7:3/loop3p1"));
    std::ofstream(dir_.file("sys/dev/block/7:3/loop3p1/partition")) << "1\n";
    std::ofstream(dir_.file("sys/dev/block/7:3/loop3p1/dev")) << "259:0\n";
    fs::create_directories(dir_.file("sys/dev/block/7:3/queue"));  // not a partition
    std::ofstream(dir_.file("proc/self/mountinfo")) << "22 1 254:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw\n";
    std::ofstream(dir_.file("proc/swaps")) << "Filename Type Size Used Priority\n";
  }
  std::vector<BlockDeviceNode> nodes() const { return device_and_partitions("/dev/loop3", makedev(7, 3), roots_); }

  testing::TempDir dir_;
  SystemRoots roots_;
};

TEST_F(BlockDeviceUsage, ListsTheDeviceThenItsPartitions) {
  const std::vector<BlockDeviceNode> n = nodes();
  ASSERT_EQ(n.size(), 2u);
  EXPECT_EQ(n[0].path, "/dev/loop3");
  EXPECT_EQ(n[1].path, "/dev/loop3p1");
  EXPECT_EQ(n[1].dev, makedev(259, 0));
  EXPECT_EQ(n[1].label, "/dev/loop3p1 (partition of /dev/loop3)");
}

TEST_F(BlockDeviceUsage, NothingFoundOnAnIdleDevice) {
  EXPECT_FALSE(mounted_node(nodes(), roots_));
  EXPECT_FALSE(swap_node(nodes(), roots_));
  EXPECT_FALSE(held_node(nodes(), roots_));
}

TEST_F(BlockDeviceUsage, AMountedPartitionIsNamedWithItsMountPoint) {
  std::ofstream(dir_.file("proc/self/mountinfo"), std::ios::app)
      << "40 22 259:0 / /mnt/my\\040data rw - ext4 /dev/loop3p1 rw\n";
  EXPECT_EQ(mounted_node(nodes(), roots_), "/dev/loop3p1 (partition of /dev/loop3) is mounted on /mnt/my data");
}

TEST_F(BlockDeviceUsage, AHolderIsNamed) {
  fs::create_directories(dir_.file("sys/dev/block/7:3/holders/dm-0"));
  EXPECT_EQ(held_node(nodes(), roots_), "/dev/loop3 is held by /dev/dm-0 (md / device-mapper)");
}

TEST(UnescapeProcField, UndoesOctalEscapes) {
  EXPECT_EQ(unescape_proc_field("/mnt/a\\040b\\011c"), "/mnt/a b\tc");
  EXPECT_EQ(unescape_proc_field("/plain"), "/plain");
}

}  // namespace
}  // namespace sluice
