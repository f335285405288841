#include "observe/environment.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "report/environment_summary.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Synthetic /proc and /sys trees, and a real target file under a synthetic mount point.
class EnvironmentTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "sluice-env-XXXXXX").string();
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    root_ = fs::canonical(templ);
    proc_ = root_ / "proc";
    sys_ = root_ / "sys";
    fs::create_directories(root_ / "mnt" / "my data");
    target_ = root_ / "mnt" / "my data" / "file";
    std::ofstream(target_) << "x";
    fs::create_directories(proc_);
    fs::create_directories(sys_);
  }
  void TearDown() override { fs::remove_all(root_); }

  void write(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
  }
  void populate() {
    write(proc_ / "sys/kernel/hostname", "testhost\n");
    write(proc_ / "sys/kernel/osrelease", "6.1.0-test\n");
    write(proc_ / "sys/kernel/version", "#1 SMP PREEMPT_DYNAMIC\n");
    write(proc_ / "cpuinfo",
          "processor\t: 0\nmodel name\t: Test CPU @ 3.00GHz\n\nprocessor\t: 1\nmodel name\t: Test CPU @ 3.00GHz\n");
    write(proc_ / "meminfo", "MemTotal:       16384 kB\nMemFree:         1000 kB\n");
    write(proc_ / "sys/vm/dirty_ratio", "20\n");
    write(proc_ / "sys/vm/dirty_background_ratio", "10\n");
    write(proc_ / "sys/vm/dirty_bytes", "0\n");
    write(proc_ / "sys/vm/dirty_expire_centisecs", "3000\n");
    const std::string mnt = (root_ / "mnt").string();
    write(proc_ / "self/mountinfo",
          "22 1 254:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw,errors=remount-ro\n"
          "30 22 254:16 / " +
              mnt +
              " rw,noatime shared:5 - xfs /dev/vdz1 rw,attr2\n"
              "31 30 0:40 / " +
              mnt +
              "/my\\040data rw,nosuid - tmpfs tmpfs rw,size=100k\n"
              "32 30 0:41 / " +
              mnt + "/my rw - tmpfs other rw\n");
    struct stat st {};
    ASSERT_EQ(::stat(target_.c_str(), &st), 0);
    const std::string key = std::to_string(major(st.st_dev)) + ":" + std::to_string(minor(st.st_dev));
    const fs::path disk = sys_ / "devices/virtual/block/vdz";
    fs::create_directories(disk / "vdz1");
    write(disk / "vdz1/partition", "1\n");
    fs::create_directories(sys_ / "dev/block");
    fs::create_directory_symlink("../../devices/virtual/block/vdz/vdz1", sys_ / "dev/block" / key);
    fs::create_directories(sys_ / "block");
    fs::create_directory_symlink("../devices/virtual/block/vdz", sys_ / "block/vdz");
    write(disk / "size", "2097152\n");
    write(disk / "device/model", "QEMU HARDDISK   \n");
    write(disk / "device/queue_depth", "32\n");
    write(disk / "queue/rotational", "0\n");
    write(disk / "queue/logical_block_size", "512\n");
    write(disk / "queue/physical_block_size", "4096\n");
    write(disk / "queue/scheduler", "mq-deadline kyber [bfq] none\n");
    write(disk / "queue/nr_requests", "256\n");
    write(disk / "queue/write_cache", "write back\n");
    write(disk / "queue/read_ahead_kb", "128\n");
  }
  json capture() { return capture_environment({target_.string()}, proc_.string(), sys_.string()); }

  fs::path root_, proc_, sys_, target_;
};

TEST_F(EnvironmentTest, HostKernelCpuMemory) {
  populate();
  const json env = capture();
  EXPECT_EQ(env["host"], "testhost");
  EXPECT_EQ(env["kernel"], "6.1.0-test #1 SMP PREEMPT_DYNAMIC");
  EXPECT_EQ(env["kernel_release"], "6.1.0-test");
  EXPECT_EQ(env["cpu"]["model"], "Test CPU @ 3.00GHz");
  EXPECT_EQ(env["cpu"]["count"], 2);
  EXPECT_EQ(env["memory_bytes"], 16384u * 1024);
}

TEST_F(EnvironmentTest, VmKnobsWithMissingOnesNull) {
  populate();
  const json vm = capture()["vm"];
  EXPECT_EQ(vm["dirty_ratio"], 20);
  EXPECT_EQ(vm["dirty_background_ratio"], 10);
  EXPECT_EQ(vm["dirty_bytes"], 0);
  EXPECT_EQ(vm["dirty_expire_centisecs"], 3000);
  EXPECT_TRUE(vm["dirty_background_bytes"].is_null());
  EXPECT_TRUE(vm["dirty_writeback_centisecs"].is_null());
}

TEST_F(EnvironmentTest, TargetOnLongestMatchingEscapedMountPoint) {
  populate();
  const json t = capture()["targets"].at(0);
  EXPECT_EQ(t["path"], target_.string());
  EXPECT_EQ(t["filesystem"], "tmpfs");
  EXPECT_EQ(t["mount_point"], (root_ / "mnt" / "my data").string());
  EXPECT_EQ(t["mount_options"], "rw,nosuid");
  EXPECT_EQ(t["device"], "vdz");
}

TEST_F(EnvironmentTest, NotYetCreatedTargetUsesItsDirectory) {
  populate();
  const json env = capture_environment({(root_ / "mnt" / "later.dat").string()}, proc_.string(), sys_.string());
  const json t = env["targets"].at(0);
  EXPECT_EQ(t["filesystem"], "xfs");
  EXPECT_EQ(t["mount_source"], "/dev/vdz1");
  EXPECT_EQ(t["device"], "vdz");
}

TEST_F(EnvironmentTest, DeviceQueueSettings) {
  populate();
  const json d = capture()["devices"].at(0);
  EXPECT_EQ(d["name"], "vdz");
  EXPECT_EQ(d["model"], "QEMU HARDDISK");
  EXPECT_EQ(d["size_bytes"], 2097152ull * 512);
  EXPECT_EQ(d["rotational"], false);
  EXPECT_EQ(d["logical_block_size"], 512);
  EXPECT_EQ(d["physical_block_size"], 4096);
  EXPECT_EQ(d["scheduler"], "bfq");
  EXPECT_EQ(d["nr_requests"], 256);
  EXPECT_EQ(d["queue_depth"], 32);
  EXPECT_EQ(d["write_cache"], "write back");
  EXPECT_EQ(d["read_ahead_kb"], 128);
  EXPECT_TRUE(d["wbt_lat_usec"].is_null());
  EXPECT_TRUE(d["cache_bytes"].is_null());  // a real disk's cache size: unknown
}

// A sluice lab's loop device reports its model's cache: its backing file is MOUNT/device and MOUNT/stats names
// the model and the cache.
TEST_F(EnvironmentTest, ALabDeviceReportsItsModelsCache) {
  populate();
  const fs::path lab = root_ / "lab-fuse";
  write(lab / "device", "");
  write(lab / "stats", R"({"model": "raid-wb", "cache": {"mode": "write-back", "bytes": 536870912}})");
  write(sys_ / "devices/virtual/block/vdz/loop/backing_file", (lab / "device").string() + "\n");
  EXPECT_EQ(capture()["devices"].at(0)["cache_bytes"], 536870912u);
  write(lab / "stats", R"({"model": "raid-wt", "cache": {"mode": "write-through", "bytes": 0}})");
  EXPECT_TRUE(capture()["devices"].at(0)["cache_bytes"].is_null());
  write(lab / "stats", "not json");
  EXPECT_TRUE(capture()["devices"].at(0)["cache_bytes"].is_null());
}

TEST_F(EnvironmentTest, EmptyTreesGiveNullsNotExceptions) {
  json env;
  ASSERT_NO_THROW(env = capture());
  EXPECT_TRUE(env["cpu"]["model"].is_null());
  EXPECT_TRUE(env["cpu"]["count"].is_null());
  EXPECT_TRUE(env["memory_bytes"].is_null());
  EXPECT_TRUE(env["vm"]["dirty_ratio"].is_null());
  EXPECT_TRUE(env["targets"].at(0)["filesystem"].is_null());
  EXPECT_TRUE(env["targets"].at(0)["device"].is_null());
  EXPECT_TRUE(env["devices"].empty());
  EXPECT_TRUE(env["host"].is_string());  // falls back to gethostname()
}

TEST_F(EnvironmentTest, GarbageValuesGiveNull) {
  write(proc_ / "sys/vm/dirty_ratio", "lots\n");
  EXPECT_TRUE(capture()["vm"]["dirty_ratio"].is_null());
}

TEST_F(EnvironmentTest, SummaryIsOneLineWithTheEssentials) {
  populate();
  const std::string s = environment_summary(capture());
  EXPECT_EQ(s.find('\n'), std::string::npos);
  EXPECT_NE(s.find("host testhost"), std::string::npos) << s;
  EXPECT_NE(s.find("Linux 6.1.0-test"), std::string::npos) << s;
  EXPECT_NE(s.find("2 CPUs (Test CPU @ 3.00GHz)"), std::string::npos) << s;
  EXPECT_NE(s.find("on tmpfs (vdz, bfq)"), std::string::npos) << s;
}

TEST(EnvironmentSummary, ToleratesEmptyJson) {
  EXPECT_FALSE(environment_summary(json::object()).empty());
  EXPECT_FALSE(environment_summary(json(nullptr)).empty());
}

TEST(EnvironmentReal, SmokeOnThisMachine) {
  const std::string tmp = fs::temp_directory_path().string();
  const json env = capture_environment({tmp});
  EXPECT_TRUE(env["host"].is_string());
  EXPECT_TRUE(env["kernel"].is_string());
  EXPECT_GT(env["cpu"]["count"].get<int>(), 0);
  EXPECT_GT(env["memory_bytes"].get<std::uint64_t>(), 0u);
  EXPECT_TRUE(env["vm"]["dirty_ratio"].is_number());
  EXPECT_TRUE(env["targets"].at(0)["filesystem"].is_string());
  EXPECT_FALSE(environment_summary(env).empty());
  EXPECT_TRUE(env["virtualization"]["summary"].is_string());
}

// Thousands of job files (nrfiles, filecreate) are described once per directory, with their count; a few
// files are each listed.
TEST(EnvironmentReal, ManyFilesAreListedOncePerDirectory) {
  const std::string tmp = fs::temp_directory_path().string();
  std::vector<std::string> few = {tmp + "/a", tmp + "/b"};
  const json small = capture_environment(few);
  ASSERT_EQ(small["targets"].size(), 2u);
  EXPECT_EQ(small["targets"][1]["path"], tmp + "/b");
  EXPECT_FALSE(small["targets"][0].contains("files"));
  std::vector<std::string> many;
  for (int i = 0; i < 1000; ++i) many.push_back(tmp + "/job.0." + std::to_string(i));
  many.push_back("/dev/null");
  const json large = capture_environment(many);
  ASSERT_EQ(large["targets"].size(), 2u) << large["targets"].dump();
  EXPECT_EQ(large["targets"][0]["path"], fs::path(tmp + "/x").parent_path().string());
  EXPECT_EQ(large["targets"][0]["files"], 1000);
  EXPECT_TRUE(large["targets"][0]["filesystem"].is_string());
  EXPECT_EQ(large["targets"][1]["path"], "/dev/null") << "a device is never folded into /dev";
  EXPECT_FALSE(large["targets"][1].contains("files"));
}

TEST_F(EnvironmentTest, SummaryNamesAContainerAndTheVmBeneath) {
  populate();
  write(proc_.parent_path() / ".dockerenv", "");
  write(sys_ / "class/dmi/id/sys_vendor", "QEMU\n");
  const json env = capture();
  EXPECT_EQ(env["virtualization"]["container"], "docker");
  EXPECT_EQ(env["virtualization"]["vm"], "qemu");
  const std::string s = environment_summary(env);
  EXPECT_NE(s.find(", container (docker) in a vm (qemu);"), std::string::npos) << s;
}

}  // namespace
}  // namespace sluice
