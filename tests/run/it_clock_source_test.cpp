// fio's clocksource from the command line: the run's clock, named in the result ("sluice"."clock_source"), and
// a note ("sluice"."notes") where clocksource=cpu cannot have the TSC.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/clock.h"
#include "support/it_test_util.h"

namespace sluice::testing {
namespace {

constexpr const char* kSystemClock = "clock_gettime(CLOCK_MONOTONIC)";

struct ClockRun {
  RunOutput output;
  std::string clock_source;
  std::string notes;  // the run's notices ("sluice"."notes"), one per line
};

ClockRun run_with_clock(const std::vector<std::string>& extra, const RunOptions& options = {}) {
  std::vector<std::string> args = {
      "run", "--output-format=json", "--name=c", "--ioengine=null", "--size=1m", "--bs=4k", "--rw=read"};
  args.insert(args.end(), extra.begin(), extra.end());
  ClockRun run{run_binary(args, options), {}, {}};
  if (run.output.exit_code != 0) return run;
  if (const auto doc = parse_document(run.output.out)) {
    run.clock_source = (*doc)["sluice"]["clock_source"];
    for (const auto& note : (*doc)["sluice"]["notes"]) run.notes += note.get<std::string>() + "\n";
  }
  return run;
}

TEST(ClockSource, ClockGettimeAndGettimeofdayReadTheSystemClock) {
  for (const char* choice : {"clock_gettime", "gettimeofday"}) {
    const ClockRun run = run_with_clock({std::string("--clocksource=") + choice});
    ASSERT_EQ(run.output.exit_code, 0) << run.output.err;
    EXPECT_EQ(run.clock_source, kSystemClock) << choice;
  }
}

TEST(ClockSource, CpuKeepsTheTscWhereTheCpuHasAnInvariantOne) {
  if (!cpu_has_invariant_tsc()) GTEST_SKIP() << "this CPU has no invariant TSC";
  const ClockRun run = run_with_clock({"--clocksource=cpu"});
  ASSERT_EQ(run.output.exit_code, 0) << run.output.err;
  EXPECT_EQ(run.clock_source.rfind("rdtsc", 0), 0u) << run.clock_source;
  EXPECT_EQ(run.notes.find("clocksource=cpu"), std::string::npos) << run.notes;
}

TEST(ClockSource, CpuWithoutTheTscSaysSoAndUsesTheSystemClock) {
  RunOptions options;
  options.environment = {{"SLUICE_CLOCK", "gettime"}};
  const ClockRun run = run_with_clock({"--clocksource=cpu"}, options);
  ASSERT_EQ(run.output.exit_code, 0) << run.output.err;
  EXPECT_EQ(run.clock_source, kSystemClock);
  EXPECT_NE(run.notes.find("clocksource=cpu: the TSC is not used"), std::string::npos) << run.notes;
}

TEST(ClockSource, AnUnknownClockIsRefusedWithTheChoices) {
  const ClockRun run = run_with_clock({"--clocksource=tsc"});
  EXPECT_EQ(run.output.exit_code, 1);
  EXPECT_NE(run.output.err.find("clocksource"), std::string::npos) << run.output.err;
  EXPECT_NE(run.output.err.find("clock_gettime"), std::string::npos) << run.output.err;
}

}  // namespace
}  // namespace sluice::testing
