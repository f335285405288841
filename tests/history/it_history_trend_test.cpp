// End-to-end: `sluice history trend METRIC` with its change points and segment means, in text, JSON and
// HTML, over twelve nights of a real sluice result (a null-engine run's document, imported with a night's
// timestamp each) whose read IOPS fall by 30% on the 7th night, when the kernel changed.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr std::int64_t kDayBeforeFirstNight = 1795993098;  // 2026-11-29T22:58:18Z

class HistoryTrendCli : public ::testing::Test {
 protected:
  // One real run's document, copied to twelve nights: 17000 IOPS (+50 * night % 3) on kernel 6.1.0, then
  // 11900 on 6.11.2 from the 7th night.
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    const RunOutput run = run_binary({"run", "--name=a", "--ioengine=null", "--rw=randread", "--size=4m",
                                      "--io_size=1m", "--no-status", "--output-format=json"});
    ASSERT_EQ(run.exit_code, 0) << describe(run);
    const std::optional<nlohmann::json> real = parse_document(run.out);
    ASSERT_TRUE(real) << run.out;
    const std::string archive = dir_->file("nightly");
    std::filesystem::create_directories(archive);
    for (int night = 1; night <= 12; ++night) {
      nlohmann::json doc = *real;
      doc["timestamp"] = kDayBeforeFirstNight + 86400 * night;
      doc["jobs"][0]["read"]["iops"] = (night < 7 ? 17000.0 : 11900.0) + 50.0 * (night % 3);
      doc["sluice"]["environment"]["kernel_release"] = night < 7 ? "6.1.0" : "6.11.2";
      std::ofstream(fmt::format("{}/night-{:02}.json", archive, night)) << doc.dump();
    }
    const RunOutput imported = run_binary({"history", "import", archive, "--label=nightly", "--db=" + database()});
    ASSERT_EQ(imported.exit_code, 0) << describe(imported);
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static std::string database() { return dir_->file("history.db"); }
  static RunOutput trend(std::vector<std::string> more) {
    std::vector<std::string> args = {"history", "trend", "read.iops", "--label=nightly", "--db=" + database()};
    args.insert(args.end(), more.begin(), more.end());
    return run_binary(args);
  }

  static inline TempDir* dir_ = nullptr;
};

TEST_F(HistoryTrendCli, TextMarksTheShiftAndTheSegmentMeans) {
  const RunOutput r = trend({});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("SEGMENT MEAN  SHIFT\n"));
  // Nights 1-6 average 17050 (night % 3 gives 50, 100, 0, 50, 100, 0), nights 7-12 11950.
  EXPECT_THAT(r.out, ::testing::ContainsRegex("2026-11-30T22:58:18Z [^\n]* 17050\n"));
  EXPECT_THAT(r.out,
              ::testing::ContainsRegex(
                  "2026-12-06T22:58:18Z [^\n]* -29\\.7%  +11950  <- change 1: -29\\.9% \\(p = 0\\.0[0-9]+\\)\n"));
  EXPECT_THAT(r.out, ::testing::ContainsRegex("2026-12-11T22:58:18Z [^\n]* 11950\n"));
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '<'), 1) << r.out;  // one change, in twelve nights
  EXPECT_THAT(r.out,
              HasSubstr("1 change point (E-Divisive means, 199 permutations, alpha 0.01, segments of at least 3):\n"));
  EXPECT_THAT(r.out, HasSubstr("  1. -29.9% at result 7 of 12: "));
  EXPECT_THAT(r.out, ::testing::ContainsRegex("     changed since the result before \\([0-9a-f]{8}\\):\n"
                                              "       kernel_release: 6\\.1\\.0 -> 6\\.11\\.2\n"));
}

TEST_F(HistoryTrendCli, JsonHasChangePointsAndSegments) {
  const RunOutput r = trend({"--output-format=json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::optional<nlohmann::json> doc = parse_document(r.out);
  ASSERT_TRUE(doc) << r.out;
  const nlohmann::json& t = (*doc)["sluice"]["history"]["trend"];
  EXPECT_EQ(t["metric"], "read.iops");
  EXPECT_EQ(t["method"]["name"], "E-Divisive means");
  ASSERT_EQ(t["points"].size(), 12u);
  EXPECT_EQ(t["points"][6]["position"], 7);
  EXPECT_DOUBLE_EQ(t["points"][6]["median"].get<double>(), 11950.0);
  EXPECT_DOUBLE_EQ(t["points"][6]["segment_mean"].get<double>(), 11950.0);
  ASSERT_EQ(t["change_points"].size(), 1u) << t.dump(2);
  const nlohmann::json& c = t["change_points"][0];
  EXPECT_EQ(c["index"], 7);
  EXPECT_EQ(c["run_id"], t["points"][6]["id"]);
  EXPECT_DOUBLE_EQ(c["before"].get<double>(), 17050.0);
  EXPECT_DOUBLE_EQ(c["after"].get<double>(), 11950.0);
  EXPECT_LE(c["p_value"].get<double>(), 0.01);
  ASSERT_EQ(c["environment_diff"].size(), 1u) << c.dump(2);
  EXPECT_EQ(c["environment_diff"][0]["what"], "kernel_release");
  EXPECT_EQ(c["environment_diff"][0]["new"], "6.11.2");
  ASSERT_EQ(t["segments"].size(), 2u);
  EXPECT_EQ(t["segments"][0]["first"], 1);
  EXPECT_EQ(t["segments"][0]["last"], 6);
  EXPECT_DOUBLE_EQ(t["segments"][0]["mean"].get<double>(), 17050.0);
  EXPECT_EQ(t["segments"][1]["first"], 7);
  EXPECT_EQ(t["segments"][1]["last"], 12);
  EXPECT_EQ(t["segments"][1]["last_run_id"], t["points"][11]["id"]);
  EXPECT_DOUBLE_EQ(t["segments"][1]["mean"].get<double>(), 11950.0);
}

TEST_F(HistoryTrendCli, HtmlDrawsTheSeriesSegmentsAndTheChangeWithWhatChanged) {
  const RunOutput r = trend({"--output-format=html"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.out.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_THAT(r.out, HasSubstr("<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"chart-trend\""));
  const std::regex points(R"(<circle cx=)");
  EXPECT_EQ(std::distance(std::sregex_iterator(r.out.begin(), r.out.end(), points), std::sregex_iterator()), 12);
  EXPECT_THAT(r.out, HasSubstr("<g class=\"span\"><title>mean of results 1 to 6: 17050</title>"));
  EXPECT_THAT(r.out, HasSubstr("<g class=\"span\"><title>mean of results 7 to 12: 11950</title>"));
  EXPECT_THAT(r.out,
              ::testing::ContainsRegex("<g class=\"marker\"><title>1 -29\\.9%\n-29\\.9% at result 7 of 12: [^<]*\n"
                                       "kernel_release: 6\\.1\\.0 -&gt; 6\\.11\\.2</title>"));
  EXPECT_THAT(r.out, Not(HasSubstr("<script")));
  const RunOutput list = run_binary({"history", "list", "--output-format=html", "--db=" + database()});
  EXPECT_EQ(list.exit_code, 1);
  EXPECT_THAT(list.err, HasSubstr("--output-format=html is for trend and changes"));
}

}  // namespace
}  // namespace sluice::testing
