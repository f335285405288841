// lockfile next to fio 3.33: two jobs on one file of a filesystem that takes 125 ms per read or write
// (tests/support/faultfs delay rules), 4 ios each. Without a lock the two run side by side (about 0.5 s);
// lockfile=exclusive serializes every io (about 1 s); readwrite lets two readers share the file and makes a
// writer wait. The margins are wide (the serialized run takes twice as long) so the test is about the rule,
// not the machine's speed: few long ios, because what a busy machine adds (load 10 on 2 cores: the FUSE
// daemon and the job wake late) is per io, while the lock's effect is per unit of delay.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "support/faultfs_mount.h"
#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

class Lockfile : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directory(tmp_.file("backing"));
    std::ofstream(tmp_.file("backing/f"), std::ios::binary) << std::string(1 << 20, 'x');
    mount_ = std::make_unique<FaultFsMount>(tmp_.file("backing"), tmp_.file("mnt"),
                                            std::vector<std::string>{"read:delay=125", "write:delay=125"});
    if (!mount_->usable()) GTEST_SKIP() << mount_->skip_reason();
  }
  void TearDown() override { mount_.reset(); }

  // The longer of the two jobs' runtimes, in ms.
  double slowest_ms(const std::string& program, const std::string& lock, const std::string& rw1,
                    const std::string& rw2) {
    // lockfile before filename: fio creates a file's lock when the file is added, so a lockfile given after
    // filename= has no effect in fio (sluice takes it in any order).
    std::vector<std::string> args = {"--lockfile=" + lock,   "--filename=" + tmp_.file("mnt/f"),
                                     "--size=16k",           "--bs=4k",
                                     "--direct=1",           "--ioengine=psync",
                                     "--output-format=json", "--name=one",
                                     "--rw=" + rw1,          "--name=two",
                                     "--rw=" + rw2};
    if (program == "fio")
      args.insert(args.begin(), "--thread");
    else
      args.insert(args.begin(), "run");
    RunOptions options;
    if (program == "fio") options.program = "fio";
    options.timeout = std::chrono::seconds(30);
    const RunOutput r = run_binary(args, options);
    EXPECT_EQ(r.exit_code, 0) << program << ": " << describe(r);
    const auto doc = parse_document(r.out);
    if (!doc) return -1;
    double slowest = 0;
    for (const auto& job : (*doc)["jobs"]) slowest = std::max(slowest, job["job_runtime"].get<double>());
    return slowest;
  }

  TempDir tmp_;
  std::unique_ptr<FaultFsMount> mount_;
};

TEST_F(Lockfile, ExclusiveSerializesTheJobsAsFio) {
  for (const std::string program : {"fio", "sluice"}) {
    if (program == "fio" && !::sluice::testing::have(::sluice::testing::Feature::kFio)) continue;
    EXPECT_LT(slowest_ms(program, "none", "read", "read"), 800) << program;       // side by side: ~500 ms
    EXPECT_GT(slowest_ms(program, "exclusive", "read", "read"), 900) << program;  // one at a time: ~1000 ms
  }
}

TEST_F(Lockfile, ReadWriteLetsReadersShareAndAWriterWaitAsFio) {
  for (const std::string program : {"fio", "sluice"}) {
    if (program == "fio" && !::sluice::testing::have(::sluice::testing::Feature::kFio)) continue;
    EXPECT_LT(slowest_ms(program, "readwrite", "read", "read"), 800) << program;
    EXPECT_GT(slowest_ms(program, "readwrite", "read", "write"), 900) << program;
  }
}

TEST(LockfileOption, BadModeIsRefusedWithTheNearestOne) {
  const RunOutput r = run_binary({"run", "--name=x", "--filename=/nonexistent/f", "--size=1m", "--lockfile=exclusiv"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("exclusive"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace sluice::testing
