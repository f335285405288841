// The text and JSON of `sluice interfere` (issue 35): a phase in which no foreground write completed is said to
// be starved, its latency censored at the phase's length and its slowdown a lower bound, never 0; a knob the
// trials of several thread counts changed is listed once.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "method/interfere.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

PhaseResult phase(const char* name, std::uint32_t threads, double iops, double phase_seconds = 20) {
  PhaseResult p;
  p.name = name;
  p.threads = threads;
  p.seconds = phase_seconds;
  p.iops = iops;
  if (iops > 0) {
    p.lat = {.mean_ns = 4e6, .p95_ns = 6'000'000, .p99_ns = 8'000'000, .max_ns = 9'000'000};
    p.fsync_lat = p.lat;
  }
  return p;
}

TrialResult trial(std::uint32_t threads, double iops) {
  TrialResult t;
  t.settings = {{"vm.dirty_bytes", "15728640"}};
  t.threads = threads;
  t.ran = true;
  t.phase = phase("trial", threads, iops);
  t.changes = {KnobChange{.knob = "vm.dirty_bytes",
                          .device = "",
                          .path = "/proc/sys/vm/dirty_bytes",
                          .original = "0",
                          .applied = "15728640",
                          .restored = true}};
  return t;
}

InterfereReport starved_report() {
  InterfereReport r;
  r.options.filename = "/lab/fg";
  r.options.threads = {1, 10};
  r.phases = {phase("idle", 1, 200), phase("loaded", 1, 0), phase("idle", 10, 700), phase("loaded", 10, 13)};
  r.trials = {trial(1, 0), trial(10, 26)};
  return r;
}

TEST(InterfereReport, AStarvedPhaseSaysSoAndItsSlowdownIsALowerBound) {
  const std::string text = render_interfere_text(starved_report());
  EXPECT_THAT(text, HasSubstr("starved: no write completed in 20 s (latency >= 20 s)"));
  // 200 IOPS idle, fewer than one write in 20 s loaded: at least 4000 times slower.
  EXPECT_THAT(text, HasSubstr("1 thread(s): slowdown >= 4000x (IOPS 200.0 -> 0: no write completed in 20 s)"));
  EXPECT_THAT(text, HasSubstr("10 thread(s): slowdown 53.85x"));
  EXPECT_THAT(text, Not(HasSubstr("0.00x")));
}

TEST(InterfereReport, AStarvedTrialIsNotAZeroLatency) {
  const std::string text = render_interfere_text(starved_report());
  EXPECT_THAT(text,
              HasSubstr("vm.dirty_bytes=15728640                          1  starved: no write completed in 20 s"));
  EXPECT_THAT(text, HasSubstr("   26.0 ( 2.00x)"));  // the 10-thread trial against its loaded baseline, 13
}

TEST(InterfereReport, EachChangedKnobIsListedOnce) {
  const std::string text = render_interfere_text(starved_report());
  const std::string line = "  vm.dirty_bytes: 0 -> 15728640 -> restored (in 2 trials, each restored after it)\n";
  EXPECT_THAT(text, HasSubstr(line));
  EXPECT_EQ(text.find(line), text.rfind(line));
}

TEST(InterfereReport, JsonCensorsTheLatencyOfAStarvedPhase) {
  const nlohmann::json j = interference_json(starved_report());
  const nlohmann::json& loaded = j["phases"][1];
  EXPECT_EQ(loaded["starved"], true);
  EXPECT_TRUE(loaded["lat_ns"].is_null());
  EXPECT_TRUE(loaded["fsync_lat_ns"].is_null());
  EXPECT_EQ(loaded["latency_at_least_ns"], 20e9);
  EXPECT_EQ(j["phases"][0]["starved"], false);
  bool seen = false;
  for (const nlohmann::json& t : j["trials"]) {
    if (t["baseline"] == false && t["threads"] == 1) {
      seen = true;
      EXPECT_EQ(t["starved"], true);
      EXPECT_TRUE(t["fg_lat_p99_ns"].is_null());
      EXPECT_EQ(t["latency_at_least_ns"], 20e9);
    }
  }
  EXPECT_TRUE(seen);
}

// The phases' runs merged into one document, whose envelope names interfere (not run) as its command.
TEST(InterfereReport, DocumentNamesItsCommand) {
  const nlohmann::json doc = nlohmann::json::parse(render_interfere_json_text(starved_report()));
  EXPECT_EQ(doc["sluice"]["command"], "interfere");
  EXPECT_TRUE(doc["sluice"].contains("schema_version"));
  EXPECT_TRUE(doc["sluice"].contains("interference"));
}

}  // namespace
}  // namespace sluice
