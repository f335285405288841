// The pure parts of sluice precondition: numbers of a pass and a round, the steady round, JSON and table.
#include "method/precondition.h"

#include <gtest/gtest.h>

namespace sluice {
namespace {

RunResult run_with(std::uint64_t runtime_ns, Direction d, std::uint64_t ios, std::uint64_t bytes,
                   std::uint64_t lat_ns) {
  RunResult run;
  run.groups.emplace_back();
  JobResult job;
  job.runtime_ns = runtime_ns;
  DirectionStats& s = job.dirs[index_of(d)];
  s.ios = ios;
  s.bytes = bytes;
  for (std::uint64_t i = 0; i < ios; ++i) s.lat.record(lat_ns);
  run.groups[0].jobs.push_back(job);
  return run;
}

std::vector<PreconditionRound> rounds_of(const std::vector<double>& iops) {
  std::vector<PreconditionRound> rounds;
  for (std::size_t i = 0; i < iops.size(); ++i) {
    rounds.push_back(PreconditionRound{static_cast<std::uint32_t>(i + 1), iops[i], 1000});
  }
  return rounds;
}

TEST(PreconditionPass, BytesSecondsAndMibPerSecond) {
  const PreconditionPass p = pass_of(run_with(2'000'000'000, Direction::kWrite, 64, 64u << 20, 1000));
  EXPECT_EQ(p.bytes, 64u << 20);
  EXPECT_DOUBLE_EQ(p.seconds, 2.0);
  EXPECT_DOUBLE_EQ(p.mib_per_s, 32.0);
}

TEST(PreconditionRound, IopsOverTheMeasuredTimeAndMeanLatency) {
  RunResult run = run_with(500'000'000, Direction::kWrite, 1000, 4096000, 2000);
  JobResult other = run.groups[0].jobs[0];
  other.dirs[index_of(Direction::kWrite)] = DirectionStats{};
  DirectionStats& reads = other.dirs[index_of(Direction::kRead)];
  reads.ios = 1000;
  for (int i = 0; i < 1000; ++i) reads.lat.record(4000);
  run.groups[0].jobs.push_back(other);
  const PreconditionRound r = round_of(run, 3);
  EXPECT_EQ(r.round, 3u);
  EXPECT_DOUBLE_EQ(r.iops, 4000.0);  // 2000 ios of two jobs side by side in 0.5 s
  EXPECT_NEAR(r.lat_mean_ns, 3000.0, 1e-6);
}

TEST(PreconditionSteady, FlatSeriesIsSteadyAtTheEndOfTheFirstWindow) {
  const auto rounds = rounds_of({100, 101, 99, 100, 100, 100});
  EXPECT_EQ(first_steady_round(rounds, 5), 5u);
}

TEST(PreconditionSteady, SettlingSeriesBecomesSteadyLater) {
  // A drop from a fresh state (FOB) to the sustained level.
  const auto rounds = rounds_of({300, 220, 150, 110, 100, 101, 99, 100, 100});
  const auto steady = first_steady_round(rounds, 5);
  ASSERT_TRUE(steady);
  EXPECT_GT(*steady, 5u);
}

TEST(PreconditionSteady, FewerRoundsThanTheWindowAreNotSteady) {
  EXPECT_FALSE(first_steady_round(rounds_of({100, 100, 100, 100}), 5));
}

TEST(PreconditionSteady, SteadyTrendIsNotSteady) {
  // Range 16% is within 20%, but the line climbs 16% of the mean across the window: excursion over 10%.
  EXPECT_FALSE(first_steady_round(rounds_of({92, 96, 100, 104, 108}), 5));
}

TEST(PreconditionJson, HasPassesRoundsAndSteadyFields) {
  PreconditionResult result;
  result.passes.push_back(PreconditionPass{1 << 20, 0.5, 2.0});
  result.rounds = rounds_of({10, 10, 10, 10, 10});
  result.steady = true;
  result.steady_round = 5;
  const nlohmann::json j = precondition_json(result);
  EXPECT_EQ(j["passes"][0]["bytes"], 1u << 20);
  EXPECT_EQ(j["passes"][0]["seconds"], 0.5);
  EXPECT_EQ(j["passes"][0]["mib_per_s"], 2.0);
  EXPECT_EQ(j["rounds"].size(), 5u);
  EXPECT_EQ(j["rounds"][4]["round"], 5);
  EXPECT_EQ(j["rounds"][4]["iops"], 10.0);
  EXPECT_EQ(j["rounds"][4]["lat_mean_ns"], 1000.0);
  EXPECT_EQ(j["steady"], true);
  EXPECT_EQ(j["steady_round"], 5);
}

TEST(PreconditionJson, SteadyRoundIsNullWhenNotSteady) {
  PreconditionResult result;
  result.rounds = rounds_of({10, 20});
  EXPECT_TRUE(precondition_json(result)["steady_round"].is_null());
}

TEST(PreconditionTable, ListsRoundsAndTheVerdict) {
  PreconditionResult result;
  result.passes.push_back(PreconditionPass{1 << 20, 0.5, 2.0});
  result.rounds = rounds_of({10, 20});
  const std::string text = render_precondition_table(result);
  EXPECT_NE(text.find("pass 1:"), std::string::npos) << text;
  EXPECT_NE(text.find("round"), std::string::npos) << text;
  EXPECT_NE(text.find("steady: no, within 2 rounds"), std::string::npos) << text;
}

TEST(PreconditionRequestChecks, MissingFilenameIsRefused) {
  EXPECT_THROW(run_precondition(PreconditionRequest{}), UserError);
}

}  // namespace
}  // namespace sluice
