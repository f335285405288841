// End-to-end: `sluice history changes` over a real series: 20 saved null-engine runs whose rate_iops doubles at
// run 11. Refused as one series without --force (naming the option); with it, exactly one change at 11 that
// names rate_iops, in text, JSON and HTML. And `history import` of a directory of fio JSON files (a nightly
// archive whose IOPS drop by 30% on the 7th night): dated by their timestamps, the change found there, a
// second import adding nothing.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

using ::testing::HasSubstr;

// 20 short rate-limited runs, 1000 IOPS for the first 10 and 2000 from the 11th, saved with one label.
class HistoryChangesCli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    for (int i = 1; i <= 20; ++i) {
      const RunOutput r =
          run_binary({"run", "--name=a", "--ioengine=null", "--rw=randread", "--size=4m", "--runtime=200ms",
                      "--time_based", std::string("--rate_iops=") + (i <= 10 ? "1000" : "2000"), "--no-status",
                      "--label=nightly", "--db=" + database()});
      ASSERT_EQ(r.exit_code, 0) << "run " << i << ": " << describe(r);
    }
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static std::string database() { return dir_->file("history.db"); }
  static RunOutput changes(std::vector<std::string> more) {
    std::vector<std::string> args = {"history", "changes", "--label=nightly", "--db=" + database()};
    args.insert(args.end(), more.begin(), more.end());
    return run_binary(args);
  }

  static inline TempDir* dir_ = nullptr;
};

TEST_F(HistoryChangesCli, DifferentJobOptionsNeedForceAndAreNamed) {
  const RunOutput r = changes({"read.iops"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.err, HasSubstr("ran different job options"));
  EXPECT_THAT(r.err, HasSubstr("job a: rate_iops 1000 -> 2000"));
  EXPECT_THAT(r.err, HasSubstr("add --force"));
}

// --min-shift=10% keeps the test to the shift it is about: within each half the rate limiter leaves noise
// well under 1%, which the permutation test would still call significant about once in a hundred sub-series.
TEST_F(HistoryChangesCli, OneChangeAtRunElevenNamingTheOption) {
  const RunOutput text = changes({"read.iops", "--force", "--min-shift=10%"});
  ASSERT_EQ(text.exit_code, 0) << describe(text);
  EXPECT_THAT(text.out, HasSubstr("read.iops: 1 change in 20 results"));
  EXPECT_THAT(text.out, HasSubstr("at result 11 of 20"));
  EXPECT_THAT(text.out, HasSubstr("job a: rate_iops: 1000 -> 2000"));

  const RunOutput json =
      changes({"--metric=read.iops", "--metric=read.bw_bytes", "--force", "--min-shift=10%", "--output-format=json"});
  ASSERT_EQ(json.exit_code, 0) << describe(json);
  const auto doc = parse_document(json.out);
  ASSERT_TRUE(doc) << json.out;
  const nlohmann::json& found = (*doc)["sluice"]["history"]["changes"];
  ASSERT_EQ(found.size(), 2u) << found.dump(2);
  const RunOutput list =
      run_binary({"history", "list", "--label=nightly", "--db=" + database(), "--output-format=json"});
  const auto runs = parse_document(list.out);
  ASSERT_TRUE(runs);
  ASSERT_EQ(runs->size(), 20u);
  for (const nlohmann::json& c : found) {
    EXPECT_EQ(c["index"], 11);
    EXPECT_EQ(c["run_id"], (*runs)[10]["id"]);
    EXPECT_EQ(c["previous_run_id"], (*runs)[9]["id"]);
    EXPECT_NEAR(c["shift_percent"].get<double>(), 100.0, 10.0);
    EXPECT_LE(c["ci"]["low_percent"].get<double>(), c["shift_percent"].get<double>());
    EXPECT_GE(c["ci"]["high_percent"].get<double>(), c["shift_percent"].get<double>());
    EXPECT_LE(c["p_value"].get<double>(), 0.01);
    EXPECT_GT(c["after"].get<double>(), c["before"].get<double>());
    bool named = false;
    for (const nlohmann::json& d : c["environment_diff"]) {
      named = named || (d["kind"] == "job option" && d["what"] == "job a: rate_iops" && d["old"] == "1000" &&
                        d["new"] == "2000");
    }
    EXPECT_TRUE(named) << c["environment_diff"].dump();
  }
  EXPECT_EQ(found[0]["metric"], "read.iops");
  EXPECT_EQ(found[1]["metric"], "read.bw_bytes");
}

// The page of the same series: the chart marks the change at 11 and its tooltip and table name the option.
TEST_F(HistoryChangesCli, HtmlMarksTheChangeNamingTheOption) {
  const RunOutput r = changes({"read.iops", "--force", "--min-shift=10%", "--output-format=html"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.out.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_THAT(r.out, HasSubstr("id=\"chart-changes-1\""));
  EXPECT_THAT(r.out, HasSubstr("<g class=\"span\"><title>mean of results 1 to 10: "));
  EXPECT_THAT(r.out, HasSubstr("<g class=\"span\"><title>mean of results 11 to 20: "));
  EXPECT_THAT(r.out,
              ::testing::ContainsRegex("<g class=\"marker\"><title>1 \\+[0-9.]+%\n\\+[0-9.]+% at result 11 of 20: "
                                       "[^<]*\njob a: rate_iops: 1000 -&gt; 2000</title>"));
  EXPECT_THAT(r.out, HasSubstr("<td>job a: rate_iops: 1000 -&gt; 2000</td>"));
}

TEST_F(HistoryChangesCli, HeadlineMetricsByDefaultAndBadOptionsNamed) {
  const RunOutput r = changes({"--force", "--min-shift=10%"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("a: read.iops: 1 change in 20 results"));
  const RunOutput bad_alpha = changes({"--alpha=2"});
  EXPECT_EQ(bad_alpha.exit_code, 1);
  EXPECT_THAT(bad_alpha.err, HasSubstr("--alpha=2: not a number from 0 to 1"));
  const RunOutput typo = changes({"--permutation=99"});
  EXPECT_EQ(typo.exit_code, 1);
  EXPECT_THAT(typo.err, HasSubstr("permutations"));
  const RunOutput metric_elsewhere = run_binary({"history", "list", "--metric=read.iops", "--db=" + database()});
  EXPECT_EQ(metric_elsewhere.exit_code, 1);
  EXPECT_THAT(metric_elsewhere.err, HasSubstr("--metric is for history changes"));
}

// Twelve nights of fio's JSON (the fixture with its timestamp a day apart and its read IOPS set), the 7th
// night on 30% slower, with a file that is not JSON next to them.
std::string write_archive(const TempDir& dir) {
  std::ifstream in(SLUICE_SOURCE_DIR "/tests/report/fixtures/fio_psync_randread.json");
  const nlohmann::json fixture = nlohmann::json::parse(in);
  const std::string archive = dir.file("archive");
  std::filesystem::create_directories(archive);
  for (int night = 1; night <= 12; ++night) {
    nlohmann::json doc = fixture;
    doc["timestamp"] = 1795993098 + 86400 * night;
    doc["jobs"][0]["read"]["iops"] = (night < 7 ? 17000.0 : 11900.0) + 50.0 * (night % 3);
    std::ofstream(fmt::format("{}/night-{:02}.json", archive, night)) << doc.dump(2);
  }
  std::ofstream(archive + "/README.txt") << "not a result\n";
  return archive;
}

TEST(HistoryImportCli, ADirectoryOfFioResultsGainsHistoryAndChanges) {
  TempDir dir;
  const std::string db = dir.file("history.db");
  const std::string archive = write_archive(dir);
  const RunOutput first = run_binary({"history", "import", archive, "--label=archive", "--db=" + db});
  ASSERT_EQ(first.exit_code, 0) << describe(first);
  EXPECT_THAT(first.err, HasSubstr("imported 12 results"));
  const RunOutput list = run_binary({"history", "list", "--label=archive", "--db=" + db, "--output-format=json"});
  const auto rows = parse_document(list.out);
  ASSERT_TRUE(rows) << describe(list);
  ASSERT_EQ(rows->size(), 12u);
  EXPECT_EQ((*rows)[0]["command"], "fio");
  EXPECT_EQ((*rows)[0]["started_at"], "2026-11-30T22:58:18Z");  // the first night's timestamp, not today
  EXPECT_EQ((*rows)[11]["started_at"], "2026-12-11T22:58:18Z");

  const RunOutput changes =
      run_binary({"history", "changes", "read.iops", "--label=archive", "--db=" + db, "--output-format=json"});
  const auto found = parse_document(changes.out);
  ASSERT_TRUE(found) << describe(changes);
  const nlohmann::json& list_of_changes = (*found)["sluice"]["history"]["changes"];
  ASSERT_EQ(list_of_changes.size(), 1u) << list_of_changes.dump(2);
  EXPECT_EQ(list_of_changes[0]["index"], 7);
  EXPECT_EQ(list_of_changes[0]["run_id"], (*rows)[6]["id"]);
  EXPECT_NEAR(list_of_changes[0]["shift_percent"].get<double>(), -30.0, 1.0);

  const RunOutput again = run_binary({"history", "import", archive, "--label=archive", "--db=" + db});
  ASSERT_EQ(again.exit_code, 0) << describe(again);
  EXPECT_THAT(again.err, HasSubstr("imported 0 results"));
  EXPECT_THAT(again.err, HasSubstr("12 already there"));

  std::ofstream(archive + "/broken.json") << "{ not json";
  const RunOutput broken = run_binary({"history", "import", archive, "--db=" + db});
  EXPECT_EQ(broken.exit_code, 1);
  EXPECT_THAT(broken.err, HasSubstr("broken.json"));
  const RunOutput missing = run_binary({"history", "import", dir.file("nowhere"), "--db=" + db});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_THAT(missing.err, HasSubstr("nowhere: no such file or directory"));
}

}  // namespace
}  // namespace sluice::testing
