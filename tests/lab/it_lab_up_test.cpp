// sluice lab up / down / list and sluice restore of a killed lab: the real daemon, loop device, mkfs and mount.
// Each test keeps its labs in its own state directory (SLUICE_STATE_DIR) and checks that nothing is left: no
// mount, loop device, daemon or file of that directory.
#include <dirent.h>
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "support/it_test_util.h"
#include "support/lab_place.h"
#include "support/machine_features.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

using ::testing::HasSubstr;

std::string mount_type(const std::string& dir) {
  std::ifstream mounts("/proc/self/mountinfo");
  std::string line, type;
  while (std::getline(mounts, line)) {
    std::istringstream f(line);
    std::string id, parent, majmin, root, point, word;
    f >> id >> parent >> majmin >> root >> point;
    while (f >> word && word != "-") {
    }
    if (point == dir) f >> type;
  }
  return type;
}

bool process_alive(pid_t pid) {
  const std::string stat = file_text("/proc/" + std::to_string(pid) + "/stat");
  return !stat.empty() && stat.find(") Z ") == std::string::npos;
}

TEST(LabUp, Ext4OnALoopDeviceWithDirectIoThenDownLeavesNothing) {
  SLUICE_REQUIRE(kLoopDevices);
  SLUICE_REQUIRE(kFuse);
  SLUICE_REQUIRE(kMkfsExt4);
  LabPlace lab;
  const RunOutput up = lab.sluice({"lab", "up", lab.model(), lab.dir(), "--size=64m", "--output-format=json"});
  ASSERT_EQ(up.exit_code, 0) << describe(up);
  const nlohmann::json j = lab_json(up);
  const std::string device = j.value("device", "");
  EXPECT_THAT(device, HasSubstr("/dev/loop"));
  EXPECT_EQ(j.value("mountpoint", ""), lab.dir());
  EXPECT_EQ(j.value("model", ""), "fast");
  EXPECT_TRUE(j["truth"]["expect"].is_array());
  const pid_t pid = j.value("pid", 0);
  EXPECT_TRUE(process_alive(pid));
  EXPECT_EQ(mount_type(lab.dir()), "ext4");
  EXPECT_EQ(file_text("/sys/block/" + device.substr(5) + "/loop/dio"), "1\n");  // ARCHITECTURE.md section 8
  std::ofstream(lab.dir() + "/hello") << "written through the model\n";
  const RunOutput list = lab.sluice({"lab", "list"});
  EXPECT_THAT(list.out, HasSubstr(lab.dir()));
  EXPECT_THAT(list.out, HasSubstr(" up"));
  const RunOutput stats = lab.sluice({"lab", "stats", lab.dir(), "--output-format=json"});
  EXPECT_EQ(stats.exit_code, 0) << describe(stats);
  // The path was measured on the loop device before mkfs, and the daemon absorbs it (docs/lab.md).
  const std::int64_t path = j["path"].value("compensated_ns", std::int64_t{0});
  EXPECT_GT(path, 0) << j["path"].dump();
  EXPECT_LT(path, 100'000'000) << j["path"].dump();
  EXPECT_EQ(j["path"].value("samples", 0), 1000);
  EXPECT_EQ(lab_json(stats)["stats"].value("path_ns", std::int64_t{-1}), path) << stats.out;
  const RunOutput down = lab.sluice({"lab", "down", lab.dir()});
  EXPECT_EQ(down.exit_code, 0) << describe(down);
  EXPECT_THAT(down.out, HasSubstr("unmounted " + lab.dir()));
  EXPECT_THAT(down.out, HasSubstr("detached " + device));
  EXPECT_EQ(lab.leftovers(), "");
  EXPECT_FALSE(process_alive(pid));
  EXPECT_TRUE(std::filesystem::is_empty(lab.dir()));  // the user's directory is as it was
}

TEST(LabUp, FsNoneLeavesTheRawBlockDevice) {
  SLUICE_REQUIRE(kLoopDevices);
  SLUICE_REQUIRE(kFuse);
  LabPlace lab;
  const RunOutput up =
      lab.sluice({"lab", "up", lab.model(), lab.dir(), "--size=16m", "--fs=none", "--no-compensation"});
  ASSERT_EQ(up.exit_code, 0) << describe(up);
  EXPECT_THAT(up.out, HasSubstr("raw block device"));
  EXPECT_THAT(up.out, HasSubstr("path        not measured (--no-compensation)"));
  const RunOutput stats = lab.sluice({"lab", "stats", lab.dir(), "--output-format=json"});
  EXPECT_EQ(lab_json(stats)["stats"].value("path_ns", std::int64_t{-1}), 0) << stats.out;
  EXPECT_EQ(mount_type(lab.dir()), "");
  const nlohmann::json labs = lab_json(lab.sluice({"lab", "list", "--output-format=json"}))["labs"];
  ASSERT_EQ(labs.size(), 1u);
  const std::string device = labs[0].value("device", "");
  EXPECT_THAT(device, HasSubstr("/dev/loop"));
  RunOptions dd_options;
  dd_options.program = "dd";
  const RunOutput dd = run_binary({"if=/dev/zero", "bs=4k", "count=16", "oflag=direct", "of=" + device}, dd_options);
  EXPECT_EQ(dd.exit_code, 0) << describe(dd);
  EXPECT_EQ(lab.sluice({"lab", "down", lab.dir()}).exit_code, 0);
  EXPECT_EQ(lab.leftovers(), "");
}

TEST(LabUp, WithoutLoopDevicesTheFuseFileAloneAndItSaysSo) {
  SLUICE_REQUIRE(kFuse);
  LabPlace lab;
  RunOptions without;
  without.environment.emplace_back("SLUICE_LAB_WITHOUT_LOOP", "1");
  const RunOutput up = lab.sluice({"lab", "up", lab.model(), lab.dir(), "--size=16m"}, without);
  ASSERT_EQ(up.exit_code, 0) << describe(up);
  EXPECT_THAT(up.out, HasSubstr("no block layer"));
  EXPECT_TRUE(std::filesystem::exists(lab.dir() + "/device"));
  EXPECT_EQ(lab.sluice({"lab", "down", lab.dir()}).exit_code, 0);
  EXPECT_EQ(lab.leftovers(), "");
  EXPECT_TRUE(std::filesystem::is_empty(lab.dir()));
}

TEST(LabUp, AKilledDaemonFailsIoAndRestoreRemovesTheLab) {
  SLUICE_REQUIRE(kLoopDevices);
  SLUICE_REQUIRE(kFuse);
  SLUICE_REQUIRE(kMkfsExt4);
  LabPlace lab;
  const RunOutput up = lab.sluice({"lab", "up", lab.model(), lab.dir(), "--size=64m", "--output-format=json"});
  ASSERT_EQ(up.exit_code, 0) << describe(up);
  const nlohmann::json j = lab_json(up);
  const pid_t pid = j.value("pid", 0);
  ASSERT_GT(pid, 0);
  ASSERT_EQ(::kill(pid, SIGKILL), 0);
  for (int i = 0; i < 200 && process_alive(pid); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  // The device fails I/O at once instead of hanging: the kernel aborts a FUSE connection whose daemon is gone.
  RunOptions bounded;
  bounded.program = "dd";
  bounded.timeout = std::chrono::milliseconds(5000);
  const RunOutput dd = run_binary(
      {"if=" + j.value("device", ""), "of=/dev/null", "bs=4k", "count=1", "skip=9", "iflag=direct"}, bounded);
  EXPECT_FALSE(dd.timed_out);
  EXPECT_NE(dd.exit_code, 0) << describe(dd);
  const RunOutput list = lab.sluice({"lab", "list"});
  EXPECT_THAT(list.out, HasSubstr("daemon gone"));
  const RunOutput restore = lab.sluice({"restore"});
  EXPECT_EQ(restore.exit_code, 0) << describe(restore);
  EXPECT_THAT(restore.out, HasSubstr("removed the lab at " + lab.dir()));
  EXPECT_EQ(lab.leftovers(), "");
}

// --state-dir: the backing file and the log in another directory (a tmpfs for the selftest's interfere lab);
// the record stays in the state directory, and down and restore remove the lab's directory there too.
TEST(LabUp, StateDirHoldsTheBackingFileAndDownOrRestoreRemovesIt) {
  SLUICE_REQUIRE(kLoopDevices);
  SLUICE_REQUIRE(kFuse);
  LabPlace lab;
  TempDir elsewhere;
  const std::string other = std::filesystem::canonical(elsewhere.path()).string();
  std::filesystem::create_directories(elsewhere.path() + "/mine");
  const std::vector<std::string> up_args = {"lab",
                                            "up",
                                            lab.model(),
                                            lab.dir(),
                                            "--size=16m",
                                            "--fs=none",
                                            "--no-compensation",
                                            "--state-dir=" + other,
                                            "--output-format=json"};
  RunOutput up = lab.sluice(up_args);
  ASSERT_EQ(up.exit_code, 0) << describe(up);
  EXPECT_THAT(lab_json(up).value("dir", ""), HasSubstr(other + "/lab."));  // backing file and log
  EXPECT_EQ(lab.records().size(), 1u);                                     // the record stays in the state directory
  RunOutput down = lab.sluice({"lab", "down", lab.dir()});
  EXPECT_EQ(down.exit_code, 0) << describe(down);
  EXPECT_THAT(down.out, HasSubstr("removed " + other + "/lab."));
  EXPECT_EQ(lab.leftovers(), "");
  // A killed daemon: restore removes the lab's directory in --state-dir too, and nothing else there.
  up = lab.sluice(up_args);
  ASSERT_EQ(up.exit_code, 0) << describe(up);
  const pid_t pid = lab_json(up).value("pid", 0);
  ASSERT_GT(pid, 0);
  ASSERT_EQ(::kill(pid, SIGKILL), 0);
  for (int i = 0; i < 200 && process_alive(pid); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const RunOutput restore = lab.sluice({"restore"});
  EXPECT_EQ(restore.exit_code, 0) << describe(restore);
  EXPECT_EQ(lab.leftovers(), "");
  std::vector<std::string> left;
  for (const auto& e : std::filesystem::directory_iterator(other)) left.push_back(e.path().filename().string());
  EXPECT_EQ(left, std::vector<std::string>{"mine"});
  const RunOutput refused = lab.sluice({"lab", "up", lab.model(), lab.dir(), "--state-dir=" + other + "/missing"});
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_THAT(refused.err, HasSubstr("--state-dir=" + other + "/missing: not an existing directory"));
}

TEST(LabUp, WithoutLoopDevicesAKilledDaemonIsRemovedByRestore) {
  SLUICE_REQUIRE(kFuse);
  LabPlace lab;
  RunOptions without;
  without.environment.emplace_back("SLUICE_LAB_WITHOUT_LOOP", "1");
  const RunOutput up = lab.sluice({"lab", "up", lab.model(), lab.dir(), "--size=16m", "--output-format=json"}, without);
  ASSERT_EQ(up.exit_code, 0) << describe(up);
  const pid_t pid = lab_json(up).value("pid", 0);
  ASSERT_GT(pid, 0);
  ASSERT_EQ(::kill(pid, SIGKILL), 0);
  for (int i = 0; i < 200 && process_alive(pid); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const RunOutput restore = lab.sluice({"restore"});
  EXPECT_EQ(restore.exit_code, 0) << describe(restore);
  EXPECT_THAT(restore.out, HasSubstr("removed the lab at " + lab.dir()));
  EXPECT_EQ(lab.leftovers(), "");
  EXPECT_TRUE(std::filesystem::is_empty(lab.dir()));
}

TEST(LabUp, AKilledLabUpIsRemovedByRestore) {
  SLUICE_REQUIRE(kLoopDevices);
  SLUICE_REQUIRE(kFuse);
  SLUICE_REQUIRE(kMkfsExt4);
  LabPlace lab;
  // A slow model, so that mkfs is still writing when lab up is killed (the record has its loop line by then).
  const std::string slow = lab.dir() + "/../slow.model";
  std::ofstream(slow) << "read_time = 5ms\n";
  RunOptions kill_in_mkfs;
  kill_in_mkfs.signal = SIGKILL;
  kill_in_mkfs.signal_when = [&lab](const RunOutput&) {
    for (const std::string& r : lab.records()) {
      if (r.ends_with(".lab") && file_text(r).find("\nloop ") != std::string::npos) return true;
    }
    return false;
  };
  const RunOutput up = lab.sluice({"lab", "up", slow, lab.dir(), "--size=64m"}, kill_in_mkfs);
  ASSERT_TRUE(up.signalled) << describe(up);
  EXPECT_EQ(up.term_signal, SIGKILL) << describe(up);
  EXPECT_THAT(lab.sluice({"lab", "list"}).out, HasSubstr("lab up killed"));
  const RunOutput restore = lab.sluice({"restore"});
  EXPECT_EQ(restore.exit_code, 0) << describe(restore);
  EXPECT_THAT(restore.out, HasSubstr("was killed"));
  EXPECT_EQ(lab.leftovers(), "");
}

TEST(LabUpRefusals, BadInputCreatesNothing) {
  SLUICE_REQUIRE(kFuse);
  LabPlace lab;
  std::ofstream(lab.dir() + "/mine") << "the user's\n";
  RunOutput r = lab.sluice({"lab", "up", lab.model(), lab.dir()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("not empty"));
  EXPECT_EQ(file_text(lab.dir() + "/mine"), "the user's\n");
  std::filesystem::remove(lab.dir() + "/mine");
  r = lab.sluice({"lab", "up", lab.model(), lab.dir() + "/missing"});
  EXPECT_THAT(r.err, HasSubstr("must be an existing empty directory"));
  r = lab.sluice({"lab", "up", "sas15", lab.dir()});
  EXPECT_THAT(r.err, HasSubstr("sas15k"));  // the nearest preset
  r = lab.sluice({"lab", "up", lab.model(), lab.dir(), "--size=1000t"});
  EXPECT_THAT(r.err, HasSubstr("free"));
  // Beyond the daemon's range: 64 servers of 0.1 ms would measure the daemon, not the model.
  const std::string fast = lab.dir() + "/../too-fast.model";
  std::ofstream(fast) << "servers = 64\nread_time = 0.1ms\n";
  r = lab.sluice({"lab", "up", fast, lab.dir(), "--size=16m"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("asks for up to 640000 requests/s"));
  EXPECT_THAT(r.err, HasSubstr("--force"));
  EXPECT_EQ(lab.leftovers(), "");
  EXPECT_TRUE(std::filesystem::is_empty(lab.dir()));
}

TEST(LabUpRefusals, ASecondLabOnTheSameDirIsRefused) {
  SLUICE_REQUIRE(kFuse);
  LabPlace lab;
  RunOptions without;
  without.environment.emplace_back("SLUICE_LAB_WITHOUT_LOOP", "1");
  ASSERT_EQ(lab.sluice({"lab", "up", lab.model(), lab.dir(), "--size=16m"}, without).exit_code, 0);
  const RunOutput again = lab.sluice({"lab", "up", lab.model(), lab.dir(), "--size=16m"}, without);
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_EQ(lab.records().size(), 1u + 1u);  // the first lab's record and its directory
  EXPECT_EQ(lab.sluice({"lab", "down", lab.dir()}).exit_code, 0);
  EXPECT_EQ(lab.leftovers(), "");
}

TEST(LabDown, NoLabThereIsSaid) {
  LabPlace lab;
  const RunOutput r = lab.sluice({"lab", "down", lab.dir()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("no lab is recorded there"));
  EXPECT_THAT(lab.sluice({"lab", "list"}).out, HasSubstr("no lab is up"));
}

}  // namespace
}  // namespace sluice::testing
