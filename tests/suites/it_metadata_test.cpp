// End-to-end: build/sluice metadata in a temporary directory.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;

bool is_empty_directory(const std::string& path) { return fs::is_directory(path) && fs::is_empty(path); }

TEST(ItMetadata, RunsEveryPhaseWithTwoThreadsAndLeavesNothingBehind) {
  testing::TempDir dir;
  const testing::RunOutput run =
      testing::run_binary({"metadata", "-d", dir.path(), "-n", "200", "-z", "2", "-b", "2", "-i", "2", "-w", "512",
                           "-e", "512", "--threads=2", "--output-format=json"});
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  EXPECT_TRUE(is_empty_directory(dir.path()));
  const nlohmann::json j = nlohmann::json::parse(run.out);
  const nlohmann::json& m = j.at("sluice").at("metadata");
  EXPECT_EQ(m.at("plan").at("tree_dirs"), 7u);
  EXPECT_EQ(m.at("plan").at("items_per_task"), 196u);  // 200 rounded down to 28 per directory
  EXPECT_EQ(m.at("plan").at("items_total"), 392u);
  ASSERT_EQ(m.at("iterations").size(), 2u);
  for (const nlohmann::json& it : m.at("iterations")) {
    EXPECT_TRUE(it.at("complete").get<bool>());
    const nlohmann::json& p = it.at("phases");
    for (const char* key :
         {"dir_create", "dir_stat", "dir_remove", "file_create", "file_stat", "file_read", "file_remove"}) {
      ASSERT_TRUE(p.contains(key)) << key;
      EXPECT_EQ(p.at(key).at("items"), 392u) << key;  // both tasks' items
      EXPECT_GT(p.at(key).at("rate").get<double>(), 0.0) << key;
    }
    EXPECT_EQ(p.at("tree_create").at("items"), 7u);  // one tree, not one per task
    EXPECT_EQ(p.at("tree_remove").at("items"), 7u);
  }
  EXPECT_EQ(m.at("latency_ns").at("file_create").at("count"), 2u * 392u);
  EXPECT_EQ(m.at("latency_ns").at("tree_create").at("count"), 2u * 7u);
  EXPECT_GT(m.at("summary").at("file_stat").at("max").get<double>(), 0.0);
  EXPECT_FALSE(m.at("interrupted").get<bool>());
}

TEST(ItMetadata, PrintsMdtestsSummaryWithUniqueTreesAndAPhaseSelection) {
  testing::TempDir dir;
  const testing::RunOutput run = testing::run_binary(
      {"metadata", "-d" + dir.path(), "-I", "5", "-z", "1", "-b", "3", "-u", "-F", "-T", "--threads=2"});
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  EXPECT_TRUE(is_empty_directory(dir.path()));
  EXPECT_NE(run.out.find("2 tasks, 40 files\n"), std::string::npos) << run.out;  // 5 x 4 directories x 2 tasks
  EXPECT_NE(run.out.find("SUMMARY rate: (of 1 iterations)"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("   File creation                   0.000"), std::string::npos) << run.out;  // not reported
  EXPECT_EQ(run.out.find("   File stat                       0.000"), std::string::npos) << run.out;  // measured
  EXPECT_EQ(run.out.find("Directory"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("-- finished at"), std::string::npos);
}

TEST(ItMetadata, RefusesBadInputBeforeCreatingAnything) {
  testing::TempDir dir;
  const auto refused = [&](std::vector<std::string> args, const std::string& expected) {
    args.insert(args.begin(), {"metadata", "-d", dir.path()});
    const testing::RunOutput run = testing::run_binary(args);
    EXPECT_EQ(run.exit_code, 1) << run.out;
    EXPECT_NE(run.err.find(expected), std::string::npos) << run.err;
    EXPECT_TRUE(is_empty_directory(dir.path()));
  };
  refused({"-n", "105", "-I", "10"}, "multiple");
  refused({"-n", "3", "-z", "2", "-b", "2"}, "fewer than the 7 directories");
  refused({"-n", "10", "-z", "40", "-b", "2"}, "sluice stops at");
  refused({"-n", "10", "-L"}, "leaves only");
  refused({"-n", "10", "-e", "4k"}, "read bytes must be smaller");
  refused({"-n"}, "needs a value");
}

TEST(ItMetadata, InterruptedRunReportsAndRemovesItsFiles) {
  testing::TempDir dir;
  testing::RunOptions options;
  options.signal_after = std::chrono::milliseconds(1000);
  const testing::RunOutput run = testing::run_binary(
      {"metadata", "-d", dir.path(), "-n", "500000", "-F", "-i", "1", "--output-format=json"}, options);
  EXPECT_EQ(run.exit_code, 130) << run.err;
  EXPECT_TRUE(is_empty_directory(dir.path()));
  const nlohmann::json j = nlohmann::json::parse(run.out);
  EXPECT_TRUE(j.at("sluice").at("metadata").at("interrupted").get<bool>());
}

}  // namespace
}  // namespace sluice
