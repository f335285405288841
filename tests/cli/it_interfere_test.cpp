// End-to-end tests of `sluice interfere` with a tiny budget in a temporary directory. Kernel knobs are
// changed only in a synthetic tree (the test hook SLUICE_KNOB_ROOT), never in the real /proc/sys or /sys.
#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "observe/disk_stats.h"
#include "support/it_test_util.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  std::string text = s.str();
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

class InterfereCli : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(dir.file("work"));
    const std::vector<std::string> devices = devices_under({dir.file("work")});
    if (devices.empty()) GTEST_SKIP() << "the temporary directory is not on a block device";
    knob_file = dir.file("knobs/sys/block/" + devices.front() + "/queue/wbt_lat_usec");
    fs::create_directories(fs::path(knob_file).parent_path());
    std::ofstream(knob_file) << "2000\n";
  }
  std::vector<std::string> args() const {
    return {"interfere",
            "--filename=" + dir.file("work/fg"),
            "--size=8m",
            "--threads=1",
            "--budget=3s",
            "--bg-size=64m",
            "--try",
            "queue.wbt_lat_usec=1000",
            "--output-format=json"};
  }
  // Knobs under DIR/knobs/{proc,sys}, journal at DIR/knobs/knobs.journal.
  testing::RunOptions knob_root_options() const {
    testing::RunOptions options;
    options.timeout = 60000ms;
    options.environment = {{"SLUICE_KNOB_ROOT", dir.file("knobs")}};
    return options;
  }
  bool work_dir_empty() const { return fs::is_empty(dir.file("work")); }

  testing::TempDir dir;
  std::string knob_file;
};

TEST_F(InterfereCli, TrialChangesKnobAndRestoresItAfterANormalRun) {
  const testing::RunOptions options = knob_root_options();
  const testing::RunOutput r = testing::run_binary(args(), options);
  ASSERT_EQ(r.exit_code, 0) << testing::describe(r);
  const auto doc = testing::parse_document(r.out);
  ASSERT_TRUE(doc);
  const nlohmann::json& i = doc->at("sluice").at("interference");
  EXPECT_TRUE(i.at("knobs_restored").get<bool>());
  ASSERT_EQ(i.at("knob_changes").size(), 1u);
  EXPECT_EQ(i["knob_changes"][0].at("original"), "2000");
  EXPECT_EQ(i["knob_changes"][0].at("applied"), "1000");
  EXPECT_EQ(i.at("phases").size(), 2u);
  EXPECT_TRUE(i.at("trials").at(1).at("ran").get<bool>());
  EXPECT_TRUE(doc->at("sluice").contains("environment"));
  EXPECT_EQ(slurp(knob_file), "2000");
  EXPECT_FALSE(fs::exists(dir.file("knobs/knobs.journal")));
  EXPECT_TRUE(work_dir_empty()) << "interfere left its files behind";
}

TEST_F(InterfereCli, SigintDuringTrialRestoresKnobAndRemovesFiles) {
  // idle, loaded, then the trial: the signal is sent once the trial has set the knob (its file reads 1000),
  // so it lands in the trial however long a busy machine takes to get there.
  testing::RunOptions options = knob_root_options();
  options.signal_when = [this](const testing::RunOutput&) { return slurp(knob_file) == "1000"; };
  const testing::RunOutput r = testing::run_binary(args(), options);
  ASSERT_EQ(r.exit_code, 130) << testing::describe(r);
  const auto doc = testing::parse_document(r.out);
  ASSERT_TRUE(doc);
  const nlohmann::json& i = doc->at("sluice").at("interference");
  EXPECT_TRUE(i.at("interrupted").get<bool>());
  EXPECT_TRUE(i.at("knobs_restored").get<bool>());
  EXPECT_EQ(i.at("knob_changes").size(), 1u) << "the signal did not land in the trial";
  EXPECT_EQ(slurp(knob_file), "2000");
  EXPECT_FALSE(fs::exists(dir.file("knobs/knobs.journal")));
  EXPECT_TRUE(work_dir_empty());
}

// --set: every phase runs with the knob set; the trial sets its own on top and goes back to the --set value; the
// original comes back at the end.
TEST_F(InterfereCli, SetKnobsHoldForEveryPhaseAndTheTrialReturnsToThem) {
  std::vector<std::string> a = args();
  a.insert(a.end() - 1, "--set=queue.wbt_lat_usec=500");
  const testing::RunOutput r = testing::run_binary(a, knob_root_options());
  ASSERT_EQ(r.exit_code, 0) << testing::describe(r);
  const auto doc = testing::parse_document(r.out);
  ASSERT_TRUE(doc);
  const nlohmann::json& i = doc->at("sluice").at("interference");
  EXPECT_TRUE(i.at("knobs_restored").get<bool>());
  ASSERT_EQ(i.at("base").size(), 1u);
  EXPECT_EQ(i["base"][0].at("original"), "2000");
  EXPECT_EQ(i["base"][0].at("applied"), "500");
  EXPECT_TRUE(i["base"][0].at("restored").get<bool>());
  ASSERT_EQ(i.at("knob_changes").size(), 1u);
  EXPECT_EQ(i["knob_changes"][0].at("original"), "500");  // the trial started from the --set value
  EXPECT_EQ(i["knob_changes"][0].at("applied"), "1000");
  EXPECT_EQ(i.at("queue").at("wbt_lat_usec"), "500");  // what the phases ran with
  EXPECT_EQ(slurp(knob_file), "2000");
  EXPECT_FALSE(fs::exists(dir.file("knobs/knobs.journal")));
  EXPECT_TRUE(work_dir_empty());
}

TEST_F(InterfereCli, BadTryIsRefusedBeforeAnyIo) {
  const testing::RunOutput r =
      testing::run_binary({"interfere", "--filename=" + dir.file("work/fg"), "--try", "nonsense"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("KNOB=VALUE"), std::string::npos);
  EXPECT_TRUE(work_dir_empty());
}

}  // namespace
}  // namespace sluice
