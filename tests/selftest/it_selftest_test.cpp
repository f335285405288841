// sluice selftest end to end (issue 35): --quick on this machine agrees with the truth in every row, and the
// selftest can fail: an ssd lab judged as sata7k disagrees, and the exit status says so.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "support/it_test_util.h"
#include "support/lab_place.h"
#include "support/machine_features.h"
#include "support/run_binary.h"

namespace sluice::testing {
namespace {

nlohmann::json selftest_section(const RunOutput& run) {
  const std::optional<nlohmann::json> doc = parse_document(run.out);
  if (!doc) return nlohmann::json();
  return (*doc)["sluice"]["selftest"];
}

std::string disagreements(const nlohmann::json& selftest) {
  std::string out;
  for (const nlohmann::json& row : selftest["rows"]) {
    if (!row.value("agrees", false)) out += row.dump() + "\n";
  }
  return out;
}

// The CI set: the queueing model (open loop, its mean and p99), ssd-cliff (precondition), ssd (run on three
// engines, capacity) and quick's class on ssd + ext4: 14 rows, about 2 minutes.
TEST(SelftestQuick, EveryRowAgreesWithTheTruth) {
  SLUICE_REQUIRE(kRoot);
  SLUICE_REQUIRE(kLoopDevices);
  SLUICE_REQUIRE(kFuse);
  LabPlace place;  // its own state directory: the selftest's labs are recorded there, and checked gone after
  RunOptions options;
  options.timeout = std::chrono::milliseconds(280'000);
  // --no-fio: fio against the truth is Presets/LabFidelity's; this test judges sluice (20 s less in CI).
  RunOutput run = place.sluice({"selftest", "--quick", "--no-fio", "--output-format=json"}, options);
  nlohmann::json selftest = selftest_section(run);
  ASSERT_TRUE(selftest.is_object()) << describe(run);
  if (!disagreements(selftest).empty()) {
    // Once more: on a shared VM the host's noise moves the lab's kernel path for minutes (2026-12-04 14:2x: a
    // different row off in each of three runs, where the full run at 13:33 agreed in all 66). A wrong method
    // disagrees again; the first run's rows are printed either way.
    std::printf("selftest: the first run disagreed (rerunning once):\n%s", disagreements(selftest).c_str());
    run = place.sluice({"selftest", "--quick", "--no-fio", "--output-format=json"}, options);
    selftest = selftest_section(run);
    ASSERT_TRUE(selftest.is_object()) << describe(run);
  }
  EXPECT_GE(selftest["rows"].size(), 14u);
  EXPECT_EQ(disagreements(selftest), "") << run.err;
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(selftest.value("agrees", false));
  EXPECT_EQ(place.leftovers(), "");
}

// An ssd lab (0.82 ms, ~9 800 IOPS) judged as a 7200 rpm disk (9.86 ms, ~101 IOPS): every row of the run
// group disagrees, and the exit status is 1.
TEST(SelftestWrongModel, SsdJudgedAsSata7kDisagrees) {
  SLUICE_REQUIRE(kLoopDevices);
  SLUICE_REQUIRE(kFuse);
  LabPlace lab;
  const RunOutput up = lab.sluice({"lab", "up", "ssd", lab.dir(), "--size=256m", "--fs=none"});
  ASSERT_EQ(up.exit_code, 0) << describe(up);
  RunOptions options;
  options.timeout = std::chrono::milliseconds(120'000);
  const RunOutput run = lab.sluice(
      {"selftest", "--lab=" + lab.dir(), "--model=sata7k", "--methods=run", "--no-fio", "--output-format=json"},
      options);
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  const nlohmann::json selftest = selftest_section(run);
  ASSERT_TRUE(selftest.is_object()) << describe(run);
  ASSERT_EQ(selftest["rows"].size(), 5u) << run.out;
  for (const nlohmann::json& row : selftest["rows"]) {
    EXPECT_FALSE(row.value("agrees", true)) << row.dump();
    EXPECT_TRUE(row["measured"].is_number()) << row.dump();  // measured, and far from sata7k's truth
  }
  EXPECT_FALSE(selftest.value("agrees", true));
  EXPECT_THAT(selftest["labs"][0].value("note", ""), ::testing::HasSubstr("judged as sata7k (it serves ssd)"));
  EXPECT_EQ(lab.sluice({"lab", "down", lab.dir()}).exit_code, 0);
}

TEST(SelftestWrongModel, LabWithAFilesystemOrNoLabIsRefused) {
  SLUICE_REQUIRE(kLoopDevices);
  SLUICE_REQUIRE(kFuse);
  LabPlace lab;
  const RunOutput none = lab.sluice({"selftest", "--lab=" + lab.dir(), "--model=ssd"});
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_THAT(none.err, ::testing::HasSubstr("no lab is up there"));
  ASSERT_EQ(lab.sluice({"lab", "up", lab.model(), lab.dir(), "--size=64m"}).exit_code, 0);
  const RunOutput mounted = lab.sluice({"selftest", "--lab=" + lab.dir(), "--model=ssd"});
  EXPECT_EQ(mounted.exit_code, 1);
  EXPECT_THAT(mounted.err, ::testing::HasSubstr("bring it up with --fs=none"));
  EXPECT_EQ(lab.sluice({"lab", "down", lab.dir()}).exit_code, 0);
}

}  // namespace
}  // namespace sluice::testing
