// ioscheduler next to fio 3.33 on a loop device (loop devices start with "none"): during the job the device's
// queue/scheduler shows the one asked for in both tools (read by exec_prerun); afterwards sluice has given the
// device its own back, where fio leaves it changed (the test puts it back after fio). A scheduler the device
// does not offer is refused before anything runs. Needs root and losetup.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/loop_device.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

std::string read_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

class IoScheduler : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string why = loop_.attach(tmp_.file("image"), 64 << 20);
    if (!why.empty()) GTEST_SKIP() << why;
    sysfs_ = "/sys/block/" + loop_.path().substr(loop_.path().rfind('/') + 1) + "/queue/scheduler";
    original_ = read_line(sysfs_);
    if (original_.find("mq-deadline") == std::string::npos) GTEST_SKIP() << "no mq-deadline here: " << original_;
  }
  void TearDown() override {
    if (!sysfs_.empty()) std::ofstream(sysfs_) << bracketed(original_);
  }
  static std::string bracketed(const std::string& text) {
    const std::size_t open = text.find('['), close = text.find(']');
    return open == std::string::npos ? text : text.substr(open + 1, close - open - 1);
  }
  // The job reads the device's scheduler in exec_prerun, whose output both tools put in s.prerun.txt.
  std::vector<std::string> job(const std::string& scheduler) {
    return {"--name=s",
            "--filename=" + loop_.path(),
            "--size=4m",
            "--rw=randread",
            "--direct=1",
            "--ioscheduler=" + scheduler,
            "--exec_prerun=cat " + sysfs_,
            "--output-format=json"};
  }
  // Runs `program` in its own directory of tmp_; returns what the job's prerun saw ("" when it did not run).
  std::string seen_by(const std::string& program, const std::string& scheduler, int expected_exit = 0) {
    const std::string dir = tmp_.file(program);
    std::filesystem::create_directories(dir);
    std::vector<std::string> args = job(scheduler);
    RunOptions options;
    options.cwd = dir;
    if (program == "fio")
      options.program = "fio";
    else
      args.insert(args.begin(), "run");
    const RunOutput r = run_binary(args, options);
    EXPECT_EQ(r.exit_code, expected_exit) << program << ": " << describe(r);
    last_err_ = r.err;
    return read_line(dir + "/s.prerun.txt");
  }
  TempDir tmp_;
  LoopDevice loop_;
  std::string last_err_;
  std::string sysfs_;
  std::string original_;
};

TEST_F(IoScheduler, SwitchedForTheJobAsFioAndGivenBack) {
  for (const std::string program : {"fio", "sluice"}) {
    if (program == "fio" && !::sluice::testing::have(::sluice::testing::Feature::kFio)) continue;
    const std::string seen = seen_by(program, "mq-deadline");
    EXPECT_NE(seen.find("[mq-deadline]"), std::string::npos) << program << ": " << seen;
    const std::string after = read_line(sysfs_);
    if (program == "sluice") {
      EXPECT_EQ(after, original_);  // given back
    } else {
      EXPECT_NE(after.find("[mq-deadline]"), std::string::npos) << after;  // fio leaves it
      std::ofstream(sysfs_) << bracketed(original_);
    }
  }
}

TEST_F(IoScheduler, ASchedulerTheDeviceLacksIsRefusedBeforeAnythingRuns) {
  EXPECT_EQ(seen_by("sluice", "noop-not-here", 1), "");  // the prerun never ran
  EXPECT_NE(last_err_.find("offers"), std::string::npos) << last_err_;
  EXPECT_EQ(read_line(sysfs_), original_);
}

TEST_F(IoScheduler, TwoJobsOfAGroupCannotAskOneDeviceForDifferentOnes) {
  const RunOutput r = run_binary({"run", "--filename=" + loop_.path(), "--size=4m", "--rw=randread", "--name=a",
                                  "--ioscheduler=mq-deadline", "--name=b", "--ioscheduler=none"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("one device has one scheduler at a time"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace sluice::testing
