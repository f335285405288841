// End-to-end: build/sluice filetree in a temporary directory.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;

bool is_empty_dir(const std::string& path) { return fs::is_directory(path) && fs::is_empty(path); }

TEST(ItFiletree, RunsEveryStepReportsJsonAndLeavesTheDirectoryEmpty) {
  testing::TempDir dir;
  const std::string work = dir.file("work");
  fs::create_directory(work);
  testing::RunOptions options;
  options.environment = {{"SLUICE_FILETREE_KEEP_ARCHIVE", dir.file("kept.tar")}};
  options.timeout = std::chrono::milliseconds(60000);
  const testing::RunOutput run = testing::run_binary(
      {"filetree", work, "--size=4m", "--dirs=4", "--files-per-dir=8", "--threads=2", "--output-format=json"}, options);
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  const nlohmann::json& steps = j.at("sluice").at("filetree").at("steps");
  const std::vector<std::string> names = {"create", "read", "copy", "tar", "read-tar", "delete"};
  ASSERT_EQ(steps.size(), names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    const nlohmann::json& s = steps[i];
    EXPECT_EQ(s.at("name"), names[i]);
    EXPECT_GT(s.at("seconds").get<double>(), 0.0) << names[i];
    EXPECT_GT(s.at("MB/s").get<double>(), 0.0) << names[i];
    EXPECT_GT(s.at("files/s").get<double>(), 0.0) << names[i];
    EXPECT_TRUE(s.at("completed").get<bool>()) << names[i];
  }
  EXPECT_EQ(steps[0].at("bytes"), 4u << 20);
  EXPECT_EQ(steps[0].at("files"), 32u);
  EXPECT_EQ(steps[2].at("bytes"), 4u << 20);
  EXPECT_EQ(steps[3].at("files"), 32u);
  EXPECT_EQ(steps[5].at("files"), 64u);  // the tree and its copy (the archive was kept for the check below)
  EXPECT_FALSE(j.at("sluice").at("filetree").at("interrupted").get<bool>());
  EXPECT_EQ(j.at("sluice").at("environment").at("targets").at(0).at("path"), work);
  EXPECT_TRUE(is_empty_dir(work));
  if (!fs::exists("/usr/bin/tar")) GTEST_SKIP() << "/usr/bin/tar is not installed";
  testing::RunOptions tar;
  tar.program = "/usr/bin/tar";
  const testing::RunOutput list = testing::run_binary({"-tvf", dir.file("kept.tar")}, tar);
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_EQ(std::count(list.out.begin(), list.out.end(), '\n'), 32 + 4 + 1) << list.out;
  EXPECT_NE(list.out.find("tree/d0003/f000031"), std::string::npos) << list.out;
}

TEST(ItFiletree, TextReportHasEveryStep) {
  testing::TempDir dir;
  const testing::RunOutput run = testing::run_binary({"filetree", dir.path(), "--size=1m", "--file-size=4k/3:64k/1"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  for (const char* step : {"create", "read", "copy", "tar", "read-tar", "delete"}) {
    EXPECT_NE(run.out.find(std::string("\n") + step + " "), std::string::npos) << step << "\n" << run.out;
  }
  EXPECT_NE(run.out.find("latency per operation"), std::string::npos);
  EXPECT_TRUE(is_empty_dir(dir.path()));
}

TEST(ItFiletree, InterruptedRunReportsWhatItMeasuredAndRemovesItsFiles) {
  testing::TempDir dir;
  testing::RunOptions options;
  // Once the first step has created something (and 400 ms in), so the signal lands in a step however long a
  // busy machine takes to start; large enough that it arrives during the run on any disk (a tiny file each).
  options.signal_after = std::chrono::milliseconds(400);
  options.signal_when = [&dir](const testing::RunOutput&) { return !is_empty_dir(dir.path()); };
  options.timeout = std::chrono::milliseconds(60000);
  const testing::RunOutput run = testing::run_binary(
      {"filetree", dir.path(), "--size=100m", "--file-size=4k", "--drop-caches=off", "--output-format=json"}, options);
  ASSERT_EQ(run.exit_code, 130) << run.err << run.out.substr(0, 2000);
  const nlohmann::json j = nlohmann::json::parse(run.out);
  EXPECT_TRUE(j.at("sluice").at("filetree").at("interrupted").get<bool>());
  const nlohmann::json& steps = j.at("sluice").at("filetree").at("steps");
  ASSERT_FALSE(steps.empty());
  // Stopped inside a step (reported incomplete) or, rarely, between two (the rest skipped).
  EXPECT_TRUE(steps.size() < 6 || !steps.back().at("completed").get<bool>()) << steps.dump();
  EXPECT_TRUE(is_empty_dir(dir.path()));
}

TEST(ItFiletree, RefusesADirectoryWithoutTheSpaceBeforeCreatingAnything) {
  testing::TempDir dir;
  const testing::RunOutput run = testing::run_binary({"filetree", dir.path(), "--size=1p", "--file-size=1g"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("use a smaller --size"), std::string::npos) << run.err;
  EXPECT_TRUE(is_empty_dir(dir.path()));
}

TEST(ItFiletree, RefusesFilesPerDirTogetherWithFileSize) {
  testing::TempDir dir;
  const testing::RunOutput run = testing::run_binary({"filetree", dir.path(), "--files-per-dir=4", "--file-size=4k"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("give one of them"), std::string::npos) << run.err;
}

TEST(ItFiletree, MistypedOptionGetsTheNearest) {
  const testing::RunOutput run = testing::run_binary({"filetree", "--file-sizes=4k"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("did you mean --file-size?"), std::string::npos) << run.err;
}

TEST(ItFiletree, MissingDirectoryIsRefused) {
  testing::TempDir dir;
  const testing::RunOutput run = testing::run_binary({"filetree", dir.file("nope"), "--size=1m"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("give an existing directory"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace sluice
