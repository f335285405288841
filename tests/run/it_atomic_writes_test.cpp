// atomic=1 (RWF_ATOMIC, fio 3.38's option; fio 3.33 refuses it on Linux, so this follows fio's documentation):
// on an XFS filesystem with reflink (atomic writes in software, 4 KiB to 1 MiB on this kernel), mounted from a
// loop device the test creates, pvsync2's writes carry RWF_ATOMIC (strace) and succeed with pvsync2, libaio and
// io_uring; sizes outside the file's limits, buffered writes and a file without atomic writes (ext4 here) are
// refused before the job starts, naming the limits. Skips without root, losetup, mkfs.xfs or such a kernel.
#include <gtest/gtest.h>
#include <sys/mount.h>

#include <fstream>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

RunOutput run_system_tool(const std::string& program, const std::vector<std::string>& args) {
  RunOptions options;
  options.program = program;
  options.timeout = std::chrono::seconds(60);
  return run_binary(args, options);
}

class AtomicWrites : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!is_root()) GTEST_SKIP() << "needs root to mount a loop device";
    SLUICE_REQUIRE(kLoopDevices);
    SLUICE_REQUIRE(kMkfsXfs);
    const std::string image = tmp_.file("xfs.img");
    {
      std::ofstream out(image, std::ios::binary);
      out.seekp((320 << 20) - 1);  // mkfs.xfs's smallest filesystem is 300 MiB
      out.put('\0');
    }
    if (run_system_tool("mkfs.xfs", {"-q", "-m", "reflink=1", image}).exit_code != 0) GTEST_SKIP() << "mkfs.xfs failed";
    const RunOutput attach = run_system_tool("losetup", {"-f", "--show", image});
    if (attach.exit_code != 0) GTEST_SKIP() << "cannot attach a loop device here";
    device_ = attach.out.substr(0, attach.out.find('\n'));
    mount_point_ = tmp_.file("mnt");
    ASSERT_EQ(run_system_tool("mkdir", {mount_point_}).exit_code, 0);
    if (::mount(device_.c_str(), mount_point_.c_str(), "xfs", 0, nullptr) != 0) GTEST_SKIP() << "cannot mount XFS";
    mounted_ = true;
    const RunOutput probe = run_binary({"run", "--name=probe", "--filename=" + file(), "--size=8m", "--bs=16k",
                                        "--rw=write", "--direct=1", "--ioengine=pvsync2", "--atomic=1"});
    if (probe.err.find("does not take atomic writes") != std::string::npos) {
      GTEST_SKIP() << "this kernel's XFS has no atomic writes: " << probe.err;
    }
    ASSERT_EQ(probe.exit_code, 0) << describe(probe);
  }
  void TearDown() override {
    if (mounted_) ::umount2(mount_point_.c_str(), MNT_DETACH);
    if (!device_.empty()) run_system_tool("losetup", {"-d", device_});
  }
  std::string file() const { return mount_point_ + "/data"; }
  std::vector<std::string> job(std::vector<std::string> extra) const {
    std::vector<std::string> args = {"--name=a",   "--filename=" + file(), "--size=8m",
                                     "--direct=1", "--atomic=1",           "--output-format=json"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }
  TempDir tmp_;
  std::string device_;
  std::string mount_point_;
  bool mounted_ = false;
};

TEST_F(AtomicWrites, Pvsync2WritesCarryRwfAtomic) {
  SLUICE_REQUIRE(kStrace);
  const TracedRun r = run_traced("sluice", job({"--ioengine=pvsync2", "--rw=randrw", "--bs=16k"}), "pwritev2,preadv2",
                                 tmp_.file("atomic.strace"));
  ASSERT_EQ(r.run.exit_code, 0) << describe(r.run);
  int writes = 0, atomic_writes = 0, atomic_reads = 0;
  for (const std::string& line : r.lines) {
    // strace 6.1 does not know the flag's name: "0x40 /* RWF_??? */".
    const bool atomic = line.find("RWF_ATOMIC") != std::string::npos || line.find(", 0x40 ") != std::string::npos;
    if (line.find("pwritev2(") != std::string::npos) {
      ++writes;
      atomic_writes += atomic ? 1 : 0;
    }
    if (line.find("preadv2(") != std::string::npos && atomic) ++atomic_reads;
  }
  EXPECT_GT(writes, 0);
  EXPECT_EQ(atomic_writes, writes) << "every write is atomic";
  EXPECT_EQ(atomic_reads, 0) << "reads take no RWF_ATOMIC";
}

TEST_F(AtomicWrites, EveryEngineThatTakesItWrites) {
  for (const std::string engine : {"pvsync2", "libaio", "io_uring"}) {
    const RunOutput r = run_as("sluice", job({"--ioengine=" + engine, "--rw=randwrite", "--bs=64k", "--iodepth=4"}));
    const auto doc = parse_document(r.out);
    ASSERT_TRUE(doc);
    EXPECT_EQ((*doc)["jobs"][0]["error"].get<int>(), 0) << engine;
    EXPECT_EQ((*doc)["jobs"][0]["write"]["io_bytes"].get<std::int64_t>(), 8 << 20) << engine;
  }
}

TEST_F(AtomicWrites, WhatCannotBeAtomicIsRefusedWithTheLimits) {
  RunOutput r = run_binary({"run", "--name=a", "--filename=" + file(), "--size=8m", "--direct=1", "--atomic=1",
                            "--ioengine=pvsync2", "--rw=write", "--bs=2m"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("writes of 2097152 bytes cannot be atomic"), std::string::npos) << r.err;
  r = run_binary({"run", "--name=a", "--filename=" + file(), "--size=8m", "--direct=1", "--atomic=1",
                  "--ioengine=pvsync2", "--rw=write", "--bs=12k"});
  EXPECT_NE(r.err.find("powers of two"), std::string::npos) << r.err;
  r = run_binary(
      {"run", "--name=a", "--filename=" + file(), "--size=8m", "--atomic=1", "--ioengine=pvsync2", "--rw=write"});
  EXPECT_NE(r.err.find("needs direct=1"), std::string::npos) << r.err;
  // An atomic write starts at a multiple of its size: a job offset or mixed sizes that break that are refused.
  r = run_binary({"run", "--name=a", "--filename=" + file(), "--size=4m", "--offset=4k", "--direct=1", "--atomic=1",
                  "--ioengine=pvsync2", "--rw=write", "--bs=16k"});
  EXPECT_NE(r.err.find("not a multiple of their 16384 bytes"), std::string::npos) << r.err;
  r = run_binary({"run", "--name=a", "--filename=" + file(), "--size=4m", "--direct=1", "--atomic=1",
                  "--ioengine=pvsync2", "--rw=randwrite", "--bssplit=4k/50:64k/50"});
  EXPECT_NE(r.err.find("give random writes blockalign=65536"), std::string::npos) << r.err;
  const RunOutput aligned =
      run_as("sluice", job({"--ioengine=pvsync2", "--rw=randwrite", "--bssplit=4k/50:64k/50", "--blockalign=64k"}));
  const auto doc = parse_document(aligned.out);
  ASSERT_TRUE(doc);
  EXPECT_EQ((*doc)["jobs"][0]["error"].get<int>(), 0) << "every write at a multiple of 64 KiB";
  // The test's own directory is not on this XFS: ext4 has no atomic writes without a device that has them.
  r = run_binary({"run", "--name=a", "--filename=" + tmp_.file("plain"), "--size=1m", "--direct=1", "--atomic=1",
                  "--ioengine=pvsync2", "--rw=write"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("does not take atomic writes"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace sluice::testing
