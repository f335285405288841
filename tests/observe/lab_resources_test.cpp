// What a lab is made of, read from synthetic /proc and /sys trees: process start times, mounts, loop devices.
#include "observe/lab_resources.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "support/temp_dir.h"

namespace sluice {
namespace {

// A <proc>/PID/stat line: comm may hold spaces and parentheses; the start time is field 22.
void write_stat(const testing::TempDir& root, int pid, const std::string& comm, char state, std::uint64_t start) {
  std::filesystem::create_directories(root.file("proc/" + std::to_string(pid)));
  std::ofstream(root.file("proc/" + std::to_string(pid) + "/stat"))
      << pid << " (" << comm << ") " << state << " 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 " << start
      << " 99 100\n";
}

SystemRoots roots_in(const testing::TempDir& root) { return {root.file("proc"), root.file("sys")}; }

TEST(LabResources, AProcessIsKnownByItsStartTime) {
  testing::TempDir root;
  write_stat(root, 42, "sluice", 'S', 123456);
  write_stat(root, 43, "a (weird) name", 'R', 777);
  write_stat(root, 44, "sluice", 'Z', 999);
  const SystemRoots roots = roots_in(root);
  EXPECT_EQ(process_start_ticks(42, roots), 123456u);
  EXPECT_EQ(process_start_ticks(43, roots), 777u);
  EXPECT_FALSE(process_start_ticks(44, roots).has_value());  // a zombie has ended
  EXPECT_FALSE(process_start_ticks(45, roots).has_value());
  EXPECT_TRUE(process_is(42, 123456, roots));
  EXPECT_FALSE(process_is(42, 123457, roots));  // the pid was reused by a later process
}

TEST(LabResources, ThisProcessHasAStartTime) {
  EXPECT_TRUE(process_start_ticks(::getpid()).has_value());
  EXPECT_FALSE(own_executable().empty());
}

TEST(LabResources, MountsFromMountinfo) {
  testing::TempDir root;
  std::filesystem::create_directories(root.file("proc/self"));
  std::ofstream(root.file("proc/self/mountinfo"))
      << "22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
      << "90 22 0:41 / /var/lib/sluice/labs/lab.1/fuse rw,nosuid - fuse.sluice-lab sluice-lab rw,user_id=0\n"
      << "91 22 7:3 / /mnt/my\\040lab rw,relatime - ext4 /dev/loop3 rw\n"
      << "92 91 0:50 / /mnt/my\\040lab rw - tmpfs tmpfs rw\n";
  const SystemRoots roots = roots_in(root);
  const std::optional<MountEntry> fuse = mount_at("/var/lib/sluice/labs/lab.1/fuse", roots);
  ASSERT_TRUE(fuse.has_value());
  EXPECT_EQ(fuse->fstype, "fuse.sluice-lab");
  EXPECT_EQ(fuse->minor, 41u);  // the FUSE connection's id
  const std::optional<MountEntry> top = mount_at("/mnt/my lab", roots);
  ASSERT_TRUE(top.has_value());
  EXPECT_EQ(top->source, "tmpfs");  // the topmost of two mounts there
  EXPECT_FALSE(mount_at("/mnt", roots).has_value());
  EXPECT_EQ(mount_table(roots).size(), 4u);
}

TEST(LabResources, LoopDevicesWithTheirBackingFiles) {
  testing::TempDir root;
  for (const char* name : {"loop0", "loop1", "vda"})
    std::filesystem::create_directories(root.file("sys/block/") + name);
  std::filesystem::create_directories(root.file("sys/block/loop1/loop"));
  std::ofstream(root.file("sys/block/loop1/loop/backing_file")) << "/var/lib/sluice/labs/lab.1/fuse/device\n";
  std::ofstream(root.file("sys/block/loop1/loop/dio")) << "1\n";
  const std::vector<LoopDeviceInfo> loops = attached_loop_devices(roots_in(root));
  ASSERT_EQ(loops.size(), 1u);  // loop0 is not attached; vda is no loop device
  EXPECT_EQ(loops[0].device, "/dev/loop1");
  EXPECT_EQ(loops[0].backing_file, "/var/lib/sluice/labs/lab.1/fuse/device");
  EXPECT_TRUE(loops[0].direct_io);
}

TEST(LabResources, AbortingAConnectionThatIsGoneIsNoError) {
  testing::TempDir root;
  std::filesystem::create_directories(root.file("sys/fs/fuse/connections/7"));
  root.make_file("sys/fs/fuse/connections/7/abort", 0);
  std::filesystem::create_directories(root.file("proc/self"));
  std::ofstream(root.file("proc/self/mountinfo"))
      << "22 1 0:30 / " << root.file("sys/fs/fuse/connections") << " rw - fusectl fusectl rw\n";
  const SystemRoots roots = roots_in(root);
  EXPECT_EQ(abort_fuse_connection(7, roots), "");
  std::ifstream written(root.file("sys/fs/fuse/connections/7/abort"));
  std::string text;
  written >> text;
  EXPECT_EQ(text, "1");
  EXPECT_EQ(abort_fuse_connection(8, roots), "");  // gone already
}

}  // namespace
}  // namespace sluice
