// End-to-end: build/sluice sysbench fileio prepare, run and cleanup on a few MiB in a temporary directory.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

using ::testing::HasSubstr;

std::vector<std::string> sysbench(const TempDir& dir, std::initializer_list<std::string> more) {
  std::vector<std::string> args = {"sysbench", "fileio", "--dir=" + dir.path(), "--file-num=4", "--file-total-size=8M"};
  args.insert(args.end(), more);
  return args;
}

TEST(ItSysbench, PrepareRunCleanupGivesSysbenchsReport) {
  TempDir dir;
  const RunOutput prepared = run_binary(sysbench(dir, {"prepare"}));
  ASSERT_EQ(prepared.exit_code, 0) << describe(prepared);
  EXPECT_THAT(prepared.out, HasSubstr("4 files, 2048Kb each, 8Mb total\n"));
  EXPECT_THAT(prepared.out, HasSubstr("Creating file test_file.3\n8388608 bytes written in "));
  EXPECT_EQ(std::filesystem::file_size(dir.file("test_file.2")), 2u << 20);

  const RunOutput run = run_binary(sysbench(dir, {"--file-test-mode=rndrw", "--time=2", "--report-interval=1", "run"}));
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("Doing random r/w test\n"));
  EXPECT_THAT(run.out, HasSubstr("[ 1s ] reads: "));
  EXPECT_THAT(run.out, HasSubstr("\nFile operations:\n    reads/s:"));
  EXPECT_THAT(run.out, HasSubstr("\nThreads fairness:\n    events (avg/stddev):"));
  EXPECT_THAT(run.out, HasSubstr("sluice latency percentiles"));

  const RunOutput cleaned = run_binary(sysbench(dir, {"cleanup"}));
  ASSERT_EQ(cleaned.exit_code, 0) << describe(cleaned);
  EXPECT_THAT(cleaned.out, HasSubstr("Removing test files...\n"));
  EXPECT_FALSE(std::filesystem::exists(dir.file("test_file.0")));
}

TEST(ItSysbench, JsonHasTheSameNumbersInASysbenchBlock) {
  TempDir dir;
  ASSERT_EQ(run_binary(sysbench(dir, {"prepare"})).exit_code, 0);
  const RunOutput run = run_binary(sysbench(
      dir, {"--file-test-mode=rndwr", "--time=0", "--events=400", "--threads=2", "--output-format=json", "run"}));
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  const auto doc = parse_document(run.out);
  ASSERT_TRUE(doc);
  const nlohmann::json& s = (*doc)["sluice"]["sysbench"];
  EXPECT_EQ(s["general_statistics"]["total_number_of_events"], 400);
  const nlohmann::json& c = s["counts"];
  // 400 events = writes + periodic fsyncs (4 after every 100 writes); + 2 threads x 4 files at the end.
  EXPECT_EQ(c["writes"].get<int>() + c["fsyncs"].get<int>() - 8, 400);
  EXPECT_EQ(c["fsyncs"].get<int>(), 3 * 4 + 8);
  const double t = s["general_statistics"]["total_time_s"].get<double>();
  EXPECT_NEAR(s["file_operations"]["writes_per_s"].get<double>() * t, c["writes"].get<double>(), 1e-6);
  EXPECT_TRUE((*doc)["sluice"]["environment"].is_object());
  EXPECT_TRUE(doc->contains("fio version"));
}

TEST(ItSysbench, AcceptsSysbenchsOlderNamesAndBooleanSpellings) {
  TempDir dir;
  ASSERT_EQ(run_binary(sysbench(dir, {"prepare"})).exit_code, 0);
  const RunOutput run =
      run_binary(sysbench(dir, {"--file-test-mode=rndwr", "--max-time=0", "--max-requests=50", "--num-threads=2",
                                "--file-fsync-all=yes", "--output-format=json", "run"}));
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  const auto doc = parse_document(run.out);
  ASSERT_TRUE(doc);
  const nlohmann::json& s = (*doc)["sluice"]["sysbench"];
  EXPECT_EQ(s["options"]["threads"], 2);
  EXPECT_EQ(s["options"]["file-fsync-all"], true);
  EXPECT_EQ(s["counts"]["writes"], 50);
  EXPECT_EQ(s["counts"]["fsyncs"], 50);
}

TEST(ItSysbench, OutputFileGetsTheWholeTextWithIntervalLines) {
  TempDir dir;
  ASSERT_EQ(run_binary(sysbench(dir, {"prepare"})).exit_code, 0);
  const std::string out = dir.file("report.txt");
  const RunOutput run = run_binary(
      sysbench(dir, {"--file-test-mode=rndrd", "--time=2", "--report-interval=1", "--output=" + out, "run"}));
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_EQ(run.out, "");
  std::ifstream in(out);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_THAT(text, HasSubstr("Doing random read test\n"));
  EXPECT_THAT(text, HasSubstr("[ 1s ] reads: "));
  EXPECT_THAT(text, HasSubstr("Threads fairness:"));
}

TEST(ItSysbench, RunBeforePrepareNamesTheFileAndSize) {
  TempDir dir;
  const RunOutput run = run_binary(sysbench(dir, {"--file-test-mode=rndrd", "run"}));
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_THAT(run.err, HasSubstr("test_file.0"));
  EXPECT_THAT(run.err, HasSubstr("2MiB"));
  EXPECT_THAT(run.err, HasSubstr("prepare"));
}

TEST(ItSysbench, BadInputNamesSysbenchsOptionAndTheNearest) {
  TempDir dir;
  RunOutput r = run_binary(sysbench(dir, {"--file-totl-size=8M", "run"}));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("did you mean --file-total-size?"));
  r = run_binary(sysbench(dir, {"--file-test-mode=rndwx", "run"}));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("did you mean rndwr?"));
  r = run_binary(sysbench(dir, {"run"}));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("--file-test-mode"));
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(ItSysbench, InterruptedRunReportsWhatItMeasuredAndKeepsTheFiles) {
  TempDir dir;
  ASSERT_EQ(run_binary(sysbench(dir, {"prepare"})).exit_code, 0);
  RunOptions o;
  o.signal_after = std::chrono::milliseconds(800);
  const RunOutput run = run_binary(sysbench(dir, {"--file-test-mode=rndrd", "--time=30", "run"}), o);
  EXPECT_EQ(run.exit_code, 130) << describe(run);
  EXPECT_LT(run.after_signal.count(), 10000) << "stopped at the signal, not after --time=30";
  EXPECT_THAT(run.out, HasSubstr("total number of events:"));
  EXPECT_THAT(run.out, HasSubstr("interrupted"));
  EXPECT_EQ(std::filesystem::file_size(dir.file("test_file.3")), 2u << 20);
}

}  // namespace
}  // namespace sluice::testing
