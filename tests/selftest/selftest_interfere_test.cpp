#include "selftest/selftest_interfere.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "selftest/selftest_report.h"

namespace sluice {
namespace {

bool has(const std::vector<std::string>& args, const std::string& arg) {
  return std::find(args.begin(), args.end(), arg) != args.end();
}

TEST(SelftestInterfere, RowsForEachThreadCountAndTheNotesKnob) {
  const std::vector<SelftestCheck> checks = interfere_checks({});
  ASSERT_EQ(checks.size(), 4u);
  EXPECT_EQ(checks[0].measure, Measure::kSlowdown);
  EXPECT_EQ(checks[0].threads, 1u);
  EXPECT_EQ(checks[1].threads, 10u);
  EXPECT_EQ(checks[0].rule, Tolerance::kAtLeast);
  EXPECT_EQ(checks[0].truth, 5);
  EXPECT_EQ(checks[2].measure, Measure::kKnobEffect);
  EXPECT_EQ(checks[2].rule, Tolerance::kNotOpposite);
  const std::vector<std::string> args = interfere_args({});
  EXPECT_TRUE(has(args, "--threads=1,10"));
  EXPECT_TRUE(has(args, "--budget=60s"));  // 10 s a phase: idle, loaded and the trial, two thread counts
  EXPECT_TRUE(has(args, "--try=vm.dirty_bytes=64M,vm.dirty_background_bytes=16M"));
  EXPECT_TRUE(has(args, "--set=vm.dirty_bytes=256M,vm.dirty_background_bytes=64M"));  // a flood a lab can hold
}

TEST(SelftestInterfere, FioPhasesMatchSluicesJobs) {
  const std::vector<std::string> idle = fio_phase_args({}, 10, "/lab", 0, 0, "idle");
  EXPECT_TRUE(has(idle, "--numjobs=10"));
  EXPECT_TRUE(has(idle, "--fsync=1"));
  EXPECT_FALSE(has(idle, "--name=bg"));
  const std::vector<std::string> loaded = fio_phase_args({}, 1, "/lab", 573571072, 1048576, "loaded");
  EXPECT_TRUE(has(loaded, "--name=bg"));
  EXPECT_TRUE(has(loaded, "--size=573571072"));
  EXPECT_TRUE(has(loaded, "--bs=1048576"));
  EXPECT_TRUE(has(loaded, "--time_based"));  // the flood lasts the phase, as sluice's
  EXPECT_NE(loaded, fio_phase_args({}, 1, "/lab", 573571072, 1048576, "knob"));  // not one cached run
}

TEST(SelftestInterfere, ReadsSlowdownKnobRatioAndFiosForeground) {
  const nlohmann::json doc = nlohmann::json::parse(R"({"sluice":{"interference":{
    "background":{"size":573571072,"bs":1048576},
    "phases":[{"name":"idle","threads":1,"iops":906,"seconds":10},{"name":"loaded","threads":1,"iops":17.25,"seconds":10},
              {"name":"idle","threads":10,"iops":5000,"seconds":10},{"name":"loaded","threads":10,"iops":0,"seconds":10}],
    "trials":[{"baseline":true,"threads":1,"fg_iops":17.25},{"baseline":false,"ran":true,"threads":1,"fg_iops":50},
              {"baseline":true,"threads":10,"fg_iops":300},{"baseline":false,"ran":false,"threads":10,"fg_iops":0}]}}})");
  std::string why;
  EXPECT_NEAR(*interfere_slowdown(doc, 1, why), 906 / 17.25, 1e-9);
  EXPECT_EQ(*interfere_slowdown(doc, 10, why), 50000);  // starved: at least the idle IOPS x the phase
  EXPECT_NEAR(*interfere_knob_ratio(doc, 1, why), 50 / 17.25, 1e-9);
  EXPECT_FALSE(interfere_knob_ratio(doc, 10, why));  // the trial did not run
  EXPECT_EQ(interfere_background(doc, why)->first, 573571072u);
  const nlohmann::json fio = nlohmann::json::parse(R"({"jobs":[
    {"jobname":"fg","error":0,"write":{"iops":30}},{"jobname":"fg","error":0,"write":{"iops":12.5}},
    {"jobname":"bg","error":0,"write":{"iops":150}}]})");
  EXPECT_EQ(*fio_foreground_iops(fio, why), 42.5);
  EXPECT_FALSE(fio_foreground_iops(nlohmann::json::parse(R"({"jobs":[]})"), why));
}

TEST(SelftestInterfere, DirectionsAndTheirJudgement) {
  EXPECT_EQ(knob_direction(2.9), 1);
  EXPECT_EQ(knob_direction(1.1), 0);
  EXPECT_EQ(knob_direction(0.5), -1);
  SelftestCheck c = interfere_checks({})[2];
  c.truth = 1;  // fio: helps
  EXPECT_TRUE(agrees_with_truth(c, 1));
  EXPECT_TRUE(agrees_with_truth(c, 0));
  EXPECT_FALSE(agrees_with_truth(c, -1));
  const SelftestCheck slowdown = interfere_checks({})[0];
  EXPECT_TRUE(agrees_with_truth(slowdown, 52));
  EXPECT_FALSE(agrees_with_truth(slowdown, 3));
  EXPECT_EQ(format_measure(Measure::kSlowdown, 52.54), "52.5x");
  EXPECT_EQ(format_measure(Measure::kKnobEffect, -1), "hurts");
}

}  // namespace
}  // namespace sluice
