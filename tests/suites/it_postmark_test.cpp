// End to end: build/sluice postmark on small sets in a temporary directory, beside the real postmark when
// it is installed.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

std::size_t postmark_entries_in(const std::string& dir) {
  std::size_t n = 0;
  for (auto it = std::filesystem::recursive_directory_iterator(dir);
       it != std::filesystem::recursive_directory_iterator(); ++it)
    ++n;
  return n;
}

std::string write_config(const TempDir& tmp, const std::string& name, const std::string& text) {
  std::ofstream(tmp.file(name)) << text;
  return tmp.file(name);
}

// The "Files:" and "Data:" lines without their per-second figures, which depend on the clock.
std::string counts_of(const std::string& report) {
  std::string out;
  static const std::regex kLine(
      R"(\t+(\d+ (created|read|appended|deleted)|(Creation|Deletion) alone: \d+ files|Mixed with transactions: \d+ files|[\d.]+ \w+bytes (read|written)) \()");
  for (auto it = std::sregex_iterator(report.begin(), report.end(), kLine); it != std::sregex_iterator(); ++it) {
    out += (*it)[1].str() + "\n";
  }
  return out;
}

TEST(PostmarkCli, ConfigFileRunsAndReportsAsPostmarkAndRemovesItsFiles) {
  TempDir tmp;
  const std::string work = tmp.file("work");
  std::filesystem::create_directory(work);
  const std::string cfg = write_config(tmp, "cfg",
                                       "set location " + work +
                                           "\nset number 100\nset transactions 400\n"
                                           "set subdirectories 4\nset size 200 5000\nshow\nrun\nquit\n");
  const RunOutput r = run_binary({"postmark", cfg});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.out.find("Reading configuration from file '" + cfg + "'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\t" + work + " (weight=1)\n4 subdirectories will be used"), std::string::npos) << r.out;
  EXPECT_NE(
      r.out.find("Creating subdirectories...Done\nCreating files...Done\nPerforming transactions..........Done\n"),
      std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("Time:\n\t"), std::string::npos);
  EXPECT_NE(r.out.find("\t\tCreation alone: 100 files ("), std::string::npos);
  EXPECT_NE(r.out.find("latency (us)"), std::string::npos);
  EXPECT_EQ(postmark_entries_in(work), 0u) << "files or subdirectories left behind";

  SLUICE_REQUIRE(kPostmark);
  RunOptions real;
  real.program = "postmark";
  const RunOutput p = run_binary({cfg}, real);
  ASSERT_EQ(p.exit_code, 0) << describe(p);
  EXPECT_FALSE(counts_of(p.out).empty());
  EXPECT_EQ(counts_of(r.out), counts_of(p.out));
}

TEST(PostmarkCli, SetOptionsAloneRunOnceAndJsonHasTheNumbers) {
  TempDir tmp;
  const RunOutput r = run_binary({"postmark", "--set", "location=" + tmp.path(), "--set=number=50",
                                  "--set=transactions=200", "--set=seed=7", "--output-format=json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  const nlohmann::json& runs = (*doc)["sluice"]["postmark"]["runs"];
  ASSERT_EQ(runs.size(), 1u);
  const nlohmann::json& run = runs[0];
  EXPECT_EQ(run["end"], "complete");
  EXPECT_EQ(run["config"]["seed"], 7);
  EXPECT_EQ(run["postmark"]["creation_alone"], 50);
  EXPECT_EQ(run["measured"]["transactions"], 200);
  EXPECT_EQ(run["measured"]["created"], run["postmark"]["created"]);
  EXPECT_GT(run["measured"]["seconds"]["total"].get<double>(), 0.0);
  EXPECT_EQ(run["latency_ns"]["create"]["N"], run["measured"]["created"]);
  EXPECT_TRUE(run["latency_ns"]["read"].contains("percentile"));
  EXPECT_EQ(postmark_entries_in(tmp.path()), 0u);
}

TEST(PostmarkCli, BadInputNamesTheNearestValidCommandOrSetting) {
  TempDir tmp;
  const std::string cfg = write_config(tmp, "cfg", "set location " + tmp.path() + "\nset numbr 10\nrun\n");
  const RunOutput r = run_binary({"postmark", cfg});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find(cfg + ":2: unknown PostMark command 'set numbr 10'; did you mean 'set number'?"),
            std::string::npos)
      << r.err;
  const RunOutput s = run_binary({"postmark", "--set=transactons=5"});
  EXPECT_EQ(s.exit_code, 1) << describe(s);
  EXPECT_NE(s.err.find("did you mean 'transactions'"), std::string::npos) << s.err;
  EXPECT_EQ(postmark_entries_in(tmp.path()), 1u);  // only cfg
}

TEST(PostmarkCli, LocationWithoutRoomOrMissingIsRefusedBeforeCreatingAnything) {
  TempDir tmp;
  const RunOutput r =
      run_binary({"postmark", "--set=location=" + tmp.path(), "--set=size=1000000000", "--set=number=100000000"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("location '" + tmp.path() + "' has"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("free, but its share of the pool"), std::string::npos) << r.err;
  EXPECT_EQ(postmark_entries_in(tmp.path()), 0u);
  const RunOutput m = run_binary({"postmark", "--set=location=" + tmp.file("missing")});
  EXPECT_EQ(m.exit_code, 1) << describe(m);
  EXPECT_NE(m.err.find("is not a directory"), std::string::npos) << m.err;
}

TEST(PostmarkCli, InterruptRemovesOnlyWhatItCreatedAndReportsWhatItMeasured) {
  TempDir tmp;
  tmp.make_file("mine.txt", 10);
  std::filesystem::create_directory(tmp.file("s1"));  // the user's: PostMark's subdirectory name, kept
  // The signal is sent once the transactions have begun (the live progress on a terminal says so), however
  // long a busy machine takes to create the pool.
  RunOptions opts;
  opts.stderr_to_terminal = true;
  opts.signal_when = [](const RunOutput& so_far) {
    return so_far.err.find("Performing transactions") != std::string::npos;
  };
  const RunOutput r = run_binary({"postmark", "--set=location=" + tmp.path(), "--set=number=500",
                                  "--set=transactions=100000000", "--set=subdirectories=3"},
                                 opts);
  EXPECT_EQ(r.exit_code, 130) << describe(r);
  EXPECT_NE(r.out.find("interrupted\nDeleting files...Done\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("run interrupted after "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("Time:\n"), std::string::npos) << "PostMark prints no report for an incomplete run";
  EXPECT_TRUE(std::filesystem::exists(tmp.file("mine.txt")));
  EXPECT_TRUE(std::filesystem::exists(tmp.file("s1")));
  EXPECT_EQ(postmark_entries_in(tmp.path()), 2u);
}

}  // namespace
}  // namespace sluice::testing
