// mdtest 4.0.0's rate and summary arithmetic and its table layout, from a hand-made result.
#include "suites/metadata_report.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

namespace sluice {
namespace {

MetadataResult result_with_two_iterations() {
  MetadataResult r;
  r.options.items = 100;
  r.options.files_only = true;
  r.options.threads = 2;
  r.plan = make_metadata_plan(r.options);
  r.command_line = {"-F", "-n", "100", "--threads=2"};
  r.path = "/tmp/x";
  r.started = "11/30/2026 23:00:00";
  r.finished = "11/30/2026 23:00:01";
  r.fs = {100ull << 30, 25ull << 30, 4ull << 20, 3ull << 20};
  const auto file_create = static_cast<std::size_t>(MetadataPhase::kFileCreate);
  const auto tree_create = static_cast<std::size_t>(MetadataPhase::kTreeCreate);
  r.iterations.resize(2);
  r.iterations[0].phases[file_create] = MetadataSample{200, 0.5};   // 400/s
  r.iterations[1].phases[file_create] = MetadataSample{200, 0.25};  // 800/s
  r.iterations[0].phases[tree_create] = MetadataSample{1, 0.001};
  r.iterations[1].phases[tree_create] = MetadataSample{1, 0.002};
  r.latency[file_create].record(20'000);
  r.latency[file_create].record(40'000);
  return r;
}

TEST(MetadataReport, RateIsAllItemsOverThePhaseTime) {
  EXPECT_DOUBLE_EQ(metadata_rate({200, 0.5}), 400.0);
  EXPECT_DOUBLE_EQ(metadata_rate({0, 0.5}), 0.0);
  EXPECT_DOUBLE_EQ(metadata_rate({10, 0.0}), 0.0);
}

TEST(MetadataReport, SummaryUsesTheSampleStandardDeviation) {
  const MetadataSummary one = summarize_metadata({5.0});
  EXPECT_DOUBLE_EQ(one.max, 5.0);
  EXPECT_DOUBLE_EQ(one.stddev, 0.0);  // mdtest prints 0 for one iteration
  const MetadataSummary s = summarize_metadata({400.0, 800.0, 600.0});
  EXPECT_DOUBLE_EQ(s.max, 800.0);
  EXPECT_DOUBLE_EQ(s.min, 400.0);
  EXPECT_DOUBLE_EQ(s.mean, 600.0);
  EXPECT_DOUBLE_EQ(s.stddev, 200.0);  // sqrt((200^2 + 200^2 + 0) / 2)
  const MetadataSummary none = summarize_metadata({});
  EXPECT_DOUBLE_EQ(none.mean, 0.0);
}

TEST(MetadataReport, TextFollowsMdtest400Layout) {
  const std::string text = render_metadata_text(result_with_two_iterations());
  EXPECT_NE(text.find("-- started at 11/30/2026 23:00:00 --"), std::string::npos) << text;
  EXPECT_NE(text.find("Command line used: sluice metadata '-F' '-n' '100' '--threads=2'"), std::string::npos);
  EXPECT_NE(text.find("FS: 100.0 GiB   Used FS: 75.0%   Inodes: 4.0 Mi   Used Inodes: 25.0%"), std::string::npos)
      << text;
  EXPECT_NE(text.find("2 tasks, 200 files\n"), std::string::npos) << text;
  EXPECT_NE(text.find("SUMMARY rate: (of 2 iterations)\n"
                      "   Operation                     Max            Min           Mean        Std Dev\n"
                      "   ---------                     ---            ---           ----        -------\n"),
            std::string::npos)
      << text;
  // "   %-18s " + 4 spaces, then four %14.3f: max 800, min 400, mean 600, sd sqrt(80000).
  EXPECT_NE(text.find("   File creation                 800.000        400.000        600.000        282.843\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("   File stat                       0.000          0.000          0.000          0.000\n"),
            std::string::npos)
      << text;
  // Tree rows: "   %-22s " and the rate of one tree (1 directory) per iteration: 1000/s and 500/s.
  EXPECT_NE(text.find("   Tree creation                1000.000        500.000        750.000        353.553\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("Directory creation"), std::string::npos);  // -F
  EXPECT_NE(text.find("   File creation                  2      30.0"), std::string::npos) << text;
  EXPECT_NE(text.find("-- finished at 11/30/2026 23:00:01 --"), std::string::npos);
}

TEST(MetadataReport, JsonHoldsIterationsSummaryAndLatency) {
  const nlohmann::json j = metadata_json(result_with_two_iterations());
  const nlohmann::json& m = j.at("sluice").at("metadata");
  EXPECT_EQ(j.at("sluice").at("command"), "metadata");
  EXPECT_EQ(m.at("iterations").size(), 2u);
  EXPECT_DOUBLE_EQ(m.at("iterations")[1].at("phases").at("file_create").at("rate").get<double>(), 800.0);
  EXPECT_DOUBLE_EQ(m.at("summary").at("file_create").at("mean").get<double>(), 600.0);
  EXPECT_EQ(m.at("latency_ns").at("file_create").at("count"), 2u);
  EXPECT_FALSE(m.at("summary").contains("dir_create"));
  EXPECT_EQ(m.at("plan").at("items_total"), 200u);
}

}  // namespace
}  // namespace sluice
