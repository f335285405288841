// Safety refusal through the CLI: a loop device carrying ext4 is refused (named, with what was found),
// nothing is written, and --allow-destructive lets the job run. Needs root, losetup and mkfs.ext4.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

using ::testing::HasSubstr;

RunOutput run_tool(const std::string& program, const std::vector<std::string>& args) {
  RunOptions o;
  o.program = program;
  o.timeout = std::chrono::milliseconds(20000);
  return run_binary(args, o);
}

// A loop device over a 32 MiB image in a temporary directory, detached when the test ends.
class LoopDevice {
 public:
  explicit LoopDevice(const std::string& image) {
    {
      std::ofstream out(image, std::ios::binary);
      out.seekp((32 << 20) - 1);
      out.put('\0');
    }
    const RunOutput mkfs = run_tool("mkfs.ext4", {"-q", "-F", image});
    if (mkfs.exit_code != 0) return;
    const RunOutput attach = run_tool("losetup", {"-f", "--show", image});
    if (attach.exit_code != 0) return;
    path_ = attach.out.substr(0, attach.out.find('\n'));
  }
  ~LoopDevice() {
    if (!path_.empty()) run_tool("losetup", {"-d", path_});
  }
  LoopDevice(const LoopDevice&) = delete;
  LoopDevice& operator=(const LoopDevice&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::string first_mib(const std::string& device) {
  std::ifstream in(device, std::ios::binary);
  std::string data(1 << 20, '\0');
  in.read(data.data(), static_cast<std::streamsize>(data.size()));
  return in ? data : std::string();
}

class CliSafety : public ::testing::Test {
 protected:
  void SetUp() override {
    SLUICE_REQUIRE(kLoopDevices);
    SLUICE_REQUIRE(kLoopDevices);
    SLUICE_REQUIRE(kMkfsExt4);
    loop_ = std::make_unique<LoopDevice>(dir_.file("image"));
    if (loop_->path().empty()) GTEST_SKIP() << "cannot create an ext4 loop device here";
  }
  TempDir dir_;
  std::unique_ptr<LoopDevice> loop_;
};

TEST_F(CliSafety, WriteToExt4DeviceIsRefusedAndNothingWritten) {
  const std::string before = first_mib(loop_->path());
  ASSERT_EQ(before.size(), 1u << 20);
  const RunOutput r = run_binary({"run", "--name=w", "--filename=" + loop_->path(), "--rw=write", "--size=1m"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.err, HasSubstr(loop_->path()));
  EXPECT_THAT(r.err, HasSubstr("ext4"));
  EXPECT_THAT(r.err, HasSubstr("--allow-destructive"));
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(first_mib(loop_->path()) == before) << "the device's first MiB changed";
}

TEST_F(CliSafety, RandomWriteAndTrimAreRefusedToo) {
  const std::string before = first_mib(loop_->path());
  for (const char* rw : {"randwrite", "randrw", "trim"}) {
    const RunOutput r = run_binary(
        {"run", "--name=w", "--filename=" + loop_->path(), std::string("--rw=") + rw, "--size=1m", "--ioengine=psync"});
    EXPECT_EQ(r.exit_code, 1) << rw << ": " << describe(r);
    EXPECT_THAT(r.err, HasSubstr("ext4")) << rw;
  }
  EXPECT_TRUE(first_mib(loop_->path()) == before) << "the device's first MiB changed";
}

TEST_F(CliSafety, ReadOfExt4DeviceIsAllowed) {
  const RunOutput r =
      run_binary({"run", "--name=r", "--filename=" + loop_->path(), "--rw=read", "--size=1m", "--output-format=json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  EXPECT_EQ(total_ios((*doc)["jobs"][0], "read"), 256u);
}

TEST_F(CliSafety, AllowDestructiveRuns) {
  const std::string before = first_mib(loop_->path());
  const RunOutput r = run_binary({"run", "--allow-destructive", "--name=w", "--filename=" + loop_->path(), "--rw=write",
                                  "--size=1m", "--output-format=json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  EXPECT_EQ((*doc)["jobs"][0]["write"]["io_bytes"], 1u << 20);
  EXPECT_FALSE(first_mib(loop_->path()) == before) << "the job did not write the device";
}

// fio's allow_mounted_write=1 in the job is --allow-destructive for that job only.
TEST_F(CliSafety, AllowMountedWriteInTheJobRunsThatJob) {
  const std::string before = first_mib(loop_->path());
  const RunOutput other =
      run_binary({"run", "--name=a", "--filename=" + dir_.file("plain"), "--size=1m", "--rw=write",
                  "--allow_mounted_write=1", "--name=w", "--filename=" + loop_->path(), "--rw=write", "--size=1m"});
  EXPECT_EQ(other.exit_code, 1) << describe(other);  // the second job did not say it
  EXPECT_THAT(other.err, HasSubstr("ext4"));
  EXPECT_TRUE(first_mib(loop_->path()) == before);
  const RunOutput r = run_binary({"run", "--name=w", "--filename=" + loop_->path(), "--rw=write", "--size=1m",
                                  "--allow_mounted_write=1", "--output-format=json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_FALSE(first_mib(loop_->path()) == before) << "the job did not write the device";
}

}  // namespace
}  // namespace sluice::testing
