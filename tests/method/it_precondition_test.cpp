// sluice precondition end to end on small files in a temporary directory; the rounds use the null engine
// (with a rate limit where a steady series is needed), rounds of 1 s.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace sluice {
namespace {

using testing::describe;
using testing::parse_document;
using testing::run_binary;

testing::RunOptions long_run() {
  testing::RunOptions options;
  options.timeout = std::chrono::milliseconds(30000);
  return options;
}

TEST(PreconditionCli, WritesANewFileTwiceAndReportsThePasses) {
  testing::TempDir dir;
  const std::string f = dir.file("f");
  const auto r = run_binary({"precondition", "--filename=" + f, "--size=8m", "--output-format=json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  struct stat st {};
  ASSERT_EQ(::stat(f.c_str(), &st), 0);
  EXPECT_EQ(st.st_size, 8 << 20);
  EXPECT_GE(static_cast<std::uint64_t>(st.st_blocks) * 512, 8u << 20) << "the passes left holes";
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  const nlohmann::json& p = (*doc)["sluice"]["precondition"];
  ASSERT_EQ(p["passes"].size(), 2u) << p.dump();
  for (const auto& pass : p["passes"]) {
    EXPECT_EQ(pass["bytes"], 8u << 20);
    EXPECT_GT(pass["seconds"].get<double>(), 0.0);
    EXPECT_GT(pass["mib_per_s"].get<double>(), 0.0);
  }
  EXPECT_TRUE(p["rounds"].empty());
  EXPECT_EQ(p["steady"], false);
  EXPECT_TRUE(p["steady_round"].is_null());
  EXPECT_NE(r.err.find("pass 2 of 2"), std::string::npos) << r.err;
}

TEST(PreconditionCli, PassesOptionAndBlockSizeAreHonoured) {
  testing::TempDir dir;
  const auto r = run_binary(
      {"precondition", "--filename=" + dir.file("f"), "--size=4m", "--passes=3", "--bs=64k", "--output-format=json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  EXPECT_EQ((*doc)["sluice"]["precondition"]["passes"].size(), 3u);
  EXPECT_EQ((*doc)["jobs"][0]["jobname"], "precondition-pass3");
  EXPECT_EQ((*doc)["jobs"][0]["write"]["total_ios"], 64u) << "4 MiB in 64 KiB blocks";
}

TEST(PreconditionCli, NewFileWithoutSizeIsRefused) {
  testing::TempDir dir;
  const auto r = run_binary({"precondition", "--filename=" + dir.file("f")});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("--size"), std::string::npos) << r.err;
}

TEST(PreconditionCli, SteadyRoundsReachSteadyStateAtAFixedRate) {
  testing::TempDir dir;
  const auto r =
      run_binary({"precondition", "--filename=" + dir.file("f"), "--size=4m", "--until-steady", "--ioengine=null",
                  "--rate_iops=2000", "--round=1s", "--max-rounds=7", "--output-format=json"},
                 long_run());
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  const nlohmann::json& p = (*doc)["sluice"]["precondition"];
  ASSERT_GE(p["rounds"].size(), 5u) << p.dump();
  EXPECT_EQ(p["steady"], true) << p.dump();
  EXPECT_EQ(p["steady_round"], 5) << p.dump();
  EXPECT_EQ(p["rounds"].size(), 5u) << "rounds go on after steady state";
  EXPECT_NEAR(p["rounds"][0]["iops"].get<double>(), 2000, 100) << p.dump();
  EXPECT_TRUE(p["rounds"][0].contains("lat_mean_ns"));
  EXPECT_NE(r.err.find("steady state reached at round 5"), std::string::npos) << r.err;
}

TEST(PreconditionCli, RoundsStopAtMaxRoundsAndSayNotSteady) {
  testing::TempDir dir;
  const auto r = run_binary({"precondition", "--filename=" + dir.file("f"), "--size=4m", "--until-steady",
                             "--ioengine=null", "--round=1s", "--max-rounds=2"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.out.find("steady: no, within 2 rounds"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("pass 2:"), std::string::npos) << r.out;
}

TEST(PreconditionCli, UnknownOptionBeforeUntilSteadyIsRefused) {
  const auto r = run_binary({"precondition", "--filename=/nonexistent/f", "--rw=randread"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("--until-steady"), std::string::npos) << r.err;
}

// A loop device over an ext4 image: precondition must refuse it, and write it only with --allow-destructive.
class PreconditionSafety : public ::testing::Test {
 protected:
  void SetUp() override {
    SLUICE_REQUIRE(kLoopDevices);
    SLUICE_REQUIRE(kMkfsExt4);
    const std::string image = dir_.file("image");
    {
      std::ofstream out(image, std::ios::binary);
      out.seekp((16 << 20) - 1);
      out.put('\0');
    }
    if (tool("mkfs.ext4", {"-q", "-F", image}).exit_code != 0) GTEST_SKIP() << "mkfs.ext4 failed";
    const auto attach = tool("losetup", {"-f", "--show", image});
    if (attach.exit_code != 0) GTEST_SKIP() << "cannot attach a loop device here";
    device_ = attach.out.substr(0, attach.out.find('\n'));
  }
  void TearDown() override {
    if (!device_.empty()) tool("losetup", {"-d", device_});
  }
  static testing::RunOutput tool(const std::string& program, const std::vector<std::string>& args) {
    testing::RunOptions o;
    o.program = program;
    return run_binary(args, o);
  }
  testing::TempDir dir_;
  std::string device_;
};

TEST_F(PreconditionSafety, DeviceWithAFilesystemIsRefused) {
  const auto r = run_binary({"precondition", "--filename=" + device_, "--no-status"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("ext4"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--allow-destructive"), std::string::npos) << r.err;
  EXPECT_EQ(tool("blkid", {"-o", "value", "-s", "TYPE", device_}).out, "ext4\n") << "the filesystem was touched";
}

TEST_F(PreconditionSafety, AllowDestructiveWritesTheWholeDevice) {
  const auto r = run_binary(
      {"precondition", "--filename=" + device_, "--allow-destructive", "--passes=1", "--output-format=json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  EXPECT_EQ((*doc)["sluice"]["precondition"]["passes"][0]["bytes"], 16u << 20);
}

TEST(PreconditionCli, HelpNamesTheRule) {
  const auto r = run_binary({"precondition", "--help"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.out.find("--until-steady"), std::string::npos);
  EXPECT_NE(r.out.find("20%"), std::string::npos);
}

}  // namespace
}  // namespace sluice
