// scale_plan (values, {N} substitution, checks before running) and scale_report (speedup, efficiency, knee).
#include <gtest/gtest.h>

#include "common/error.h"
#include "scale/scale_plan.h"
#include "scale/scale_report.h"

namespace sluice {
namespace {

ScaleOptions with_command(std::vector<std::string> command) {
  ScaleOptions o;
  o.command = std::move(command);
  return o;
}

TEST(ScaleValues, DefaultIsPowersOfTwoUpToTwiceTheCpusAndEndsAtMax) {
  ScaleOptions o;
  EXPECT_EQ(scale_values(o, 4), (std::vector<std::uint32_t>{1, 2, 4, 8}));
  o.max = 6;
  EXPECT_EQ(scale_values(o, 4), (std::vector<std::uint32_t>{1, 2, 4, 6}));
  o.values = {3, 1};
  EXPECT_EQ(scale_values(o, 4), (std::vector<std::uint32_t>{3, 1}));
}

TEST(ScaleArgv, ReplacesEveryPlaceholderAndSplitsOneBlankWord) {
  EXPECT_EQ(scale_argv(with_command({"make", "-j{N}", "-l{N}"}), 4), (std::vector<std::string>{"make", "-j4", "-l4"}));
  EXPECT_EQ(scale_argv(with_command({"make -j{N}  all"}), 2), (std::vector<std::string>{"make", "-j2", "all"}));
  ScaleOptions shell = with_command({"make", "-j{N}", "&&", "true"});
  shell.shell = true;
  EXPECT_EQ(scale_argv(shell, 8), (std::vector<std::string>{"/bin/sh", "-c", "make -j8 && true"}));
}

TEST(ScaleCheck, RefusesNoCommandNoPlaceholderAndAMissingProgram) {
  EXPECT_THROW(check_scale_command(with_command({})), UserError);
  try {
    check_scale_command(with_command({"true"}));
    FAIL() << "no {N} accepted";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("{N}"), std::string::npos);
  }
  try {
    check_scale_command(with_command({"sluice-no-such-program-xyz", "{N}"}));
    FAIL() << "a missing program accepted";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("not found"), std::string::npos);
  }
  EXPECT_NO_THROW(check_scale_command(with_command({"true", "{N}"})));
  EXPECT_EQ(find_program("sh", "/nonexistent:/bin:/usr/bin").empty(), false);
  EXPECT_EQ(find_program("sh", "/nonexistent"), "");
}

ScaleRow row(std::uint32_t n, std::vector<double> walls, double user = 1, double sys = 0.5) {
  ScaleRow r{n, {}};
  for (const double w : walls) {
    ChildRun c;
    c.wall_s = w;
    c.user_s = user;
    c.sys_s = sys;
    r.runs.push_back(c);
  }
  return r;
}

TEST(ScaleStats, SpeedupAndEfficiencyAgainstTheFirstRow) {
  const std::vector<ScaleRowStats> s = scale_stats({row(1, {9, 11}), row(2, {5}), row(4, {4})}, 2);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_DOUBLE_EQ(s[0].wall_mean, 10);
  EXPECT_DOUBLE_EQ(s[0].wall_min, 9);
  EXPECT_DOUBLE_EQ(s[0].wall_max, 11);
  EXPECT_DOUBLE_EQ(s[1].speedup, 2);
  EXPECT_DOUBLE_EQ(s[1].efficiency, 1);
  EXPECT_DOUBLE_EQ(s[2].speedup, 2.5);
  EXPECT_DOUBLE_EQ(s[2].efficiency, 0.625);
  EXPECT_DOUBLE_EQ(s[1].busy_cpus, 1.5 / 5);
  EXPECT_DOUBLE_EQ(s[1].utilization, 1.5 / 5 / 2);
}

TEST(ScaleKnee, FirstNWhoseNextStepGainsLessThanTenPercent) {
  // 10 -> 5 (x2) -> 4 (x1.25) -> 3.9 (x1.026): the step 4 -> 8 gains 2.6%, so the knee is N=4.
  const auto s = scale_stats({row(1, {10}), row(2, {5}), row(4, {4}), row(8, {3.9})}, 2);
  EXPECT_EQ(scale_knee(s), 4u);
  EXPECT_EQ(scale_knee(scale_stats({row(1, {10}), row(2, {5.2})}, 2)), std::nullopt);
  EXPECT_EQ(scale_knee(scale_stats({row(1, {10}), row(2, {9.5})}, 2)), 1u);
  EXPECT_EQ(scale_knee(scale_stats({row(1, {10})}, 2)), std::nullopt);
}

TEST(ScaleJson, RowsCarryTheDocumentedKeysAndTheFailure) {
  ScaleResult r;
  r.options = with_command({"make", "-j{N}"});
  r.options.values = {1, 2};
  r.cpus = 2;
  r.rows = {row(1, {2})};
  r.failed = true;
  r.failure.n = 2;
  r.failure.run = 1;
  r.failure.child.exit_status = 3;
  const nlohmann::json j = scale_json(r);
  const nlohmann::json& rows = j["sluice"]["scale"]["rows"];
  ASSERT_EQ(rows.size(), 1u);
  for (const char* key : {"n", "wall_s", "speedup", "efficiency", "cpu_user_s", "cpu_sys_s"}) {
    EXPECT_TRUE(rows[0].contains(key)) << key;
  }
  EXPECT_EQ(rows[0]["wall_s"]["mean"], 2.0);
  EXPECT_EQ(j["sluice"]["scale"]["failure"]["exit_status"], 3);
  EXPECT_TRUE(j["sluice"]["environment"].contains("virtualization"));
  EXPECT_NE(render_scale_text(r).find("stopped: N=2 run 1"), std::string::npos);
}

}  // namespace
}  // namespace sluice
