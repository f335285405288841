// End-to-end tests of `sluice quick` through build/sluice: a tiny budget and --size on a temporary directory,
// with the default engine (io_uring, or whatever quick falls back to) and the real capacity search.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

bool directory_is_empty(const std::string& path) { return std::filesystem::is_empty(std::filesystem::path(path)); }

RunOptions quick_run_options() {
  RunOptions options;
  options.timeout = std::chrono::milliseconds(30000);
  return options;
}

std::vector<std::string> tiny_quick(const std::string& dir, std::initializer_list<std::string> more = {}) {
  std::vector<std::string> args = {"quick", "--budget=5s", "--size=16m", "--no-status", dir};
  args.insert(args.end(), more);
  return args;
}

TEST(CliQuick, TableHasEveryRowWithinTheBudgetAndLeavesNothingBehind) {
  TempDir dir;
  const RunOutput r = run_binary(tiny_quick(dir.path()), quick_run_options());
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  for (const char* row :
       {"1 MiB sequential write", "1 MiB sequential read", "4 KiB random read capacity", "4 KiB random write capacity",
        "4 KiB random read, depth 1", "4 KiB random write, depth 1", "16 KiB random write + fsync"}) {
    EXPECT_THAT(r.out, HasSubstr(row)) << r.out;
  }
  EXPECT_THAT(r.out, HasSubstr("concurrency"));
  EXPECT_THAT(r.out, HasSubstr("MiB/s"));
  EXPECT_THAT(r.out, HasSubstr("RAM"));  // the environment line
  EXPECT_THAT(r.out, HasSubstr("\nbehaves like: "));
  EXPECT_TRUE(directory_is_empty(dir.path()));
  // The budget's 10% rule is QuickDriverTest's (tests/method, on a fake clock); here, where a busy machine
  // (load 10 on 2 cores) stretches process start, the layout and cleanup, only that the 5 s budget governs
  // the run at all (the default is 2 minutes).
  EXPECT_LT(r.elapsed, std::chrono::milliseconds(20000)) << describe(r);
}

TEST(CliQuick, JsonToAFileHasTheQuickSection) {
  TempDir dir;
  TempDir out_dir;
  const std::string out = out_dir.file("quick.json");
  const RunOutput r =
      run_binary(tiny_quick(dir.path(), {"--output-format=json", "--output=" + out}), quick_run_options());
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  const auto doc = parse_document(text.str());
  ASSERT_TRUE(doc);
  const auto& quick = (*doc)["sluice"]["quick"];
  ASSERT_EQ(quick["tests"].size(), 7u) << quick.dump().substr(0, 800);
  EXPECT_EQ(quick["file_size"], 16u << 20);
  // Every test ran, so both figures exist and the device is classed (which class depends on the machine).
  const auto& behaves = quick["behaves_like"];
  const std::string cls = behaves["class"].is_string() ? behaves["class"].get<std::string>() : "";
  EXPECT_THAT((std::vector<std::string>{"ramdisk", "ssd", "sas15k", "sata7k"}), ::testing::Contains(cls))
      << behaves.dump();
  EXPECT_EQ(behaves["classes"].size(), 4u);
  EXPECT_GE((*doc)["jobs"].size(), 5u);
  EXPECT_TRUE((*doc)["sluice"].contains("environment"));
  EXPECT_TRUE(directory_is_empty(dir.path()));
}

TEST(CliQuick, KeepLeavesTheTestFile) {
  TempDir dir;
  const RunOutput r = run_binary(tiny_quick(dir.path(), {"--keep", "--budget=3s"}), quick_run_options());
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_FALSE(directory_is_empty(dir.path()));
  EXPECT_THAT(r.out, HasSubstr("kept"));
}

TEST(CliQuick, InterruptStopsAndRemovesTheFile) {
  TempDir dir;
  RunOptions options = quick_run_options();
  options.signal_after = std::chrono::milliseconds(1500);
  const RunOutput r = run_binary({"quick", "--budget=20s", "--size=16m", "--no-status", dir.path()}, options);
  EXPECT_EQ(r.exit_code, 130) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("interrupted"));
  EXPECT_TRUE(directory_is_empty(dir.path()));
}

TEST(CliQuick, UnknownOptionNamesTheNearestOne) {
  const RunOutput r = run_binary({"quick", "--budjet=5s"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("--budjet"));
  EXPECT_THAT(r.err, HasSubstr("did you mean --budget"));
  EXPECT_EQ(r.out, "");
}

TEST(CliQuick, BadValueNamesTheOptionAndTheNearestValue) {
  const RunOutput r = run_binary({"quick", "--output-format=jsn"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("--output-format=jsn"));
  EXPECT_THAT(r.err, HasSubstr("did you mean json"));
}

TEST(CliQuick, BadEngineNamesTheNearestEngine) {
  const RunOutput r = run_binary({"quick", "--ioengine=iouring"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("did you mean io_uring"));
}

TEST(CliQuick, BadBudgetIsRefused) {
  const RunOutput r = run_binary({"quick", "--budget=soon"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("--budget=soon"));
}

TEST(CliQuick, HelpDescribesTheBudgetAndTheRows) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"quick", "--help"}, std::vector<std::string>{"help", "quick"}}) {
    const RunOutput r = run_binary(args);
    ASSERT_EQ(r.exit_code, 0) << describe(r);
    EXPECT_THAT(r.out, HasSubstr("--budget=T"));
    EXPECT_THAT(r.out, HasSubstr("capacity"));
    EXPECT_THAT(r.out, HasSubstr("fsync"));
    EXPECT_THAT(r.out, Not(HasSubstr("--runtime")));
  }
}

}  // namespace
}  // namespace sluice::testing
