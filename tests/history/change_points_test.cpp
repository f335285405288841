// E-Divisive means on synthetic series with known change points (a step, two steps, a slow drift, noise with
// outliers), the false-positive rate on pure noise over many seeds, and agreement with an independent
// implementation in Python (tests/history/edivisive_reference.py) on the same series.
#include "history/change_points.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "common/rng.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace sluice {
namespace {

using ::testing::ElementsAre;

// Normal noise (Box-Muller) around `mean`, `count` points.
void append_noise(std::vector<double>& out, Rng& rng, std::size_t count, double mean, double sd) {
  for (std::size_t i = 0; i < count; ++i) {
    const double u1 = 1.0 - rng.uniform();
    const double u2 = rng.uniform();
    out.push_back(mean + sd * std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2));
  }
}

std::vector<double> one_step() {
  Rng rng(11);
  std::vector<double> s;
  append_noise(s, rng, 30, 100, 2);
  append_noise(s, rng, 30, 120, 2);
  return s;
}

std::vector<double> two_steps() {
  Rng rng(12);
  std::vector<double> s;
  append_noise(s, rng, 25, 100, 3);
  append_noise(s, rng, 25, 130, 3);
  append_noise(s, rng, 25, 90, 3);
  return s;
}

// Flat at 100 for 20 points, a drift to 140 over the next 40, flat again for 20.
std::vector<double> slow_drift() {
  Rng rng(13);
  std::vector<double> s;
  append_noise(s, rng, 20, 100, 1);
  for (int i = 1; i <= 40; ++i) append_noise(s, rng, 1, 100 + i, 1);
  append_noise(s, rng, 20, 140, 1);
  return s;
}

// Noise with three single-point outliers ten times the noise's spread: no change.
std::vector<double> noise_with_outliers() {
  Rng rng(14);
  std::vector<double> s;
  append_noise(s, rng, 60, 100, 2);
  s[9] += 20;
  s[30] -= 25;
  s[47] += 30;
  return s;
}

std::vector<std::size_t> indexes(const std::vector<ChangePoint>& points) {
  std::vector<std::size_t> out;
  for (const ChangePoint& p : points) out.push_back(p.index);
  return out;
}

// q(tau) straight from Matteson & James's definition, for the running sums of divergence_profile.
double q_by_definition(const std::vector<double>& s, std::size_t tau) {
  const double m = static_cast<double>(tau), k = static_cast<double>(s.size() - tau);
  double between = 0, left = 0, right = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    for (std::size_t j = 0; j < s.size(); ++j) {
      const double d = std::abs(s[i] - s[j]);
      if ((i < tau) != (j < tau))
        between += d / 2;  // each cross pair is met twice
      else if (i < tau)
        left += d;
      else
        right += d;
    }
  }
  return m * k / (m + k) * (2 * between / (m * k) - left / (m * (m - 1)) - right / (k * (k - 1)));
}

TEST(ChangePoints, ProfileIsTheDefinitionsStatisticAtEverySplit) {
  const std::vector<double> s = two_steps();
  const std::vector<double> profile = divergence_profile(s, 3);
  ASSERT_EQ(profile.size(), s.size() - 5);
  for (std::size_t i = 0; i < profile.size(); ++i) EXPECT_NEAR(profile[i], q_by_definition(s, i + 3), 1e-9) << i;
  EXPECT_TRUE(divergence_profile(std::vector<double>{1, 2, 3, 4, 5}, 3).empty());
}

TEST(ChangePoints, OneStepIsFoundWhereItIs) {
  const std::vector<ChangePoint> points = find_change_points(one_step(), {});
  ASSERT_THAT(indexes(points), ElementsAre(31u));
  const ChangePoint& c = points[0];
  EXPECT_NEAR(c.before, 100, 1.5);
  EXPECT_NEAR(c.after, 120, 1.5);
  EXPECT_LE(c.p_value, 0.005);  // no permutation of 199 comes near
  EXPECT_LT(c.shift_low, c.after - c.before);
  EXPECT_GT(c.shift_high, c.after - c.before);
  EXPECT_LT(c.shift_low, 20.0);
  EXPECT_GT(c.shift_high, 20.0);
  EXPECT_GT(c.shift_low, 17.0);  // a tight interval: 30 points a side, sd 2
  EXPECT_LT(c.shift_high, 23.0);
}

TEST(ChangePoints, TwoStepsAreFoundWithTheMeansBetweenThem) {
  const std::vector<ChangePoint> points = find_change_points(two_steps(), {});
  ASSERT_THAT(indexes(points), ElementsAre(26u, 51u));
  EXPECT_NEAR(points[0].before, 100, 2);
  EXPECT_NEAR(points[0].after, 130, 2);
  EXPECT_NEAR(points[1].before, 130, 2);  // the middle segment, not everything before
  EXPECT_NEAR(points[1].after, 90, 2);
  EXPECT_LT(points[1].shift_high, 0);
}

// Within the drift, give or take the minimum segment: at its ends the drift is smaller than the noise.
TEST(ChangePoints, SlowDriftIsSplitWithinTheDrift) {
  const std::vector<ChangePoint> points = find_change_points(slow_drift(), {});
  ASSERT_FALSE(points.empty());
  for (const ChangePoint& p : points) {
    EXPECT_GE(p.index, 21u - 3) << "before the drift";
    EXPECT_LE(p.index, 61u + 3) << "after the drift";
    EXPECT_GT(p.after, p.before) << p.index;
  }
}

TEST(ChangePoints, OutliersInNoiseAreNoChange) {
  EXPECT_THAT(indexes(find_change_points(noise_with_outliers(), {})), ElementsAre());
}

TEST(ChangePoints, FlatAndShortSeriesHaveNone) {
  EXPECT_TRUE(find_change_points(std::vector<double>(30, 5.0), {}).empty());
  EXPECT_TRUE(find_change_points({1, 2, 3, 100, 101}, {}).empty());  // shorter than two segments of 3
  EXPECT_TRUE(find_change_points({}, {}).empty());
}

TEST(ChangePoints, MinimumShiftAndMinimumSegmentAreKept) {
  ChangePointOptions options;
  options.min_relative_shift = 0.25;  // the step is 20%
  EXPECT_TRUE(find_change_points(one_step(), options).empty());
  options.min_relative_shift = 0.1;
  EXPECT_THAT(indexes(find_change_points(one_step(), options)), ElementsAre(31u));
  // A step 3 points from the end is found with segments of 3, and cannot be with segments of 4.
  std::vector<double> late(30, 10.0);
  late[27] = late[28] = late[29] = 50;
  EXPECT_THAT(indexes(find_change_points(late, {})), ElementsAre(28u));
  options = {};
  options.min_segment = 4;
  for (const ChangePoint& p : find_change_points(late, options)) {
    EXPECT_GE(p.index, 5u);
    EXPECT_LE(p.index, 27u);
  }
}

TEST(ChangePoints, TheSameSeedGivesTheSameAnswer) {
  ChangePointOptions options;
  options.seed = 77;
  const std::vector<ChangePoint> a = find_change_points(two_steps(), options);
  const std::vector<ChangePoint> b = find_change_points(two_steps(), options);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].p_value, b[i].p_value);
    EXPECT_EQ(a[i].shift_low, b[i].shift_low);
    EXPECT_EQ(a[i].shift_high, b[i].shift_high);
  }
}

// Pure noise, 1000 series each with its own data and permutation seed: the share with any change point is
// the test's level (exactly alpha for exchangeable data: P(p <= 0.01) = 2/200 with 199 permutations).
// Allowed: alpha plus three binomial standard deviations (10 + 3 * 3.1).
TEST(ChangePoints, PureNoiseFalsePositiveRateIsAtMostAlpha) {
  constexpr std::size_t kSeries = 1000;
  std::size_t false_positives = 0;
  for (std::size_t i = 0; i < kSeries; ++i) {
    Rng rng(1000 + i);
    std::vector<double> s;
    append_noise(s, rng, 40, 100, 5);
    ChangePointOptions options;
    options.seed = i;
    options.bootstrap = 0;
    if (!find_change_points(s, options).empty()) ++false_positives;
  }
  RecordProperty("false_positives", static_cast<int>(false_positives));
  std::printf("pure noise: %zu of %zu series had a change point (alpha 0.01)\n", false_positives, kSeries);
  EXPECT_LE(false_positives, 19u);
  EXPECT_GE(false_positives, 2u) << "far fewer than alpha: the test has lost its power or its randomness";
}

// --- the independent reference -------------------------------------------------------------------------

std::string python3() {
  if (::access("/usr/bin/python3", X_OK) == 0) return "/usr/bin/python3";  // Debian's, with python3-numpy
  return testing::have_program("python3") ? "python3" : "";
}

void expect_same_as_reference(const std::string& name, const std::vector<double>& series,
                              const ChangePointOptions& options) {
  const std::string python = python3();
  if (python.empty()) GTEST_SKIP() << "python3 is not installed: the reference cannot run";
  testing::TempDir dir;
  const nlohmann::json request = {{"series", series},
                                  {"permutations", options.permutations},
                                  {"alpha", options.alpha},
                                  {"min_segment", options.min_segment},
                                  {"seed", options.seed},
                                  {"bootstrap", options.bootstrap},
                                  {"confidence", options.confidence},
                                  {"min_relative_shift", options.min_relative_shift}};
  std::ofstream(dir.file("series.json")) << request.dump();
  testing::RunOptions run;
  run.program = python;
  run.timeout = std::chrono::milliseconds(120000);
  const testing::RunOutput r =
      testing::run_binary({SLUICE_SOURCE_DIR "/tests/history/edivisive_reference.py", dir.file("series.json")}, run);
  ASSERT_EQ(r.exit_code, 0) << name << ": " << r.err;
  const nlohmann::json reference = nlohmann::json::parse(r.out);

  const std::vector<double> profile = divergence_profile(series, options.min_segment);
  ASSERT_EQ(profile.size(), reference["profile"].size()) << name;
  for (std::size_t i = 0; i < profile.size(); ++i) {
    EXPECT_NEAR(profile[i], reference["profile"][i].get<double>(), 1e-9) << name << " split " << i;
  }
  const std::vector<ChangePoint> points = find_change_points(series, options);
  const nlohmann::json& theirs = reference["change_points"];
  ASSERT_EQ(points.size(), theirs.size()) << name << ": " << theirs.dump();
  for (std::size_t i = 0; i < points.size(); ++i) {
    EXPECT_EQ(points[i].index, theirs[i]["index"].get<std::size_t>()) << name;
    EXPECT_NEAR(points[i].statistic, theirs[i]["statistic"].get<double>(), 1e-9) << name;
    EXPECT_EQ(points[i].p_value, theirs[i]["p_value"].get<double>()) << name;  // the same permutations
    EXPECT_NEAR(points[i].before, theirs[i]["before"].get<double>(), 1e-9) << name;
    EXPECT_NEAR(points[i].after, theirs[i]["after"].get<double>(), 1e-9) << name;
    EXPECT_NEAR(points[i].shift_low, theirs[i]["shift_low"].get<double>(), 1e-9) << name;
    EXPECT_NEAR(points[i].shift_high, theirs[i]["shift_high"].get<double>(), 1e-9) << name;
  }
}

TEST(ChangePointsReference, PythonReferenceAgreesOnEverySyntheticSeries) {
  ChangePointOptions options;
  expect_same_as_reference("one step", one_step(), options);
  expect_same_as_reference("two steps", two_steps(), options);
  expect_same_as_reference("slow drift", slow_drift(), options);
  expect_same_as_reference("noise with outliers", noise_with_outliers(), options);
  options.seed = 2026;
  options.min_segment = 5;
  options.alpha = 0.01;
  options.permutations = 99;
  options.confidence = 0.9;
  expect_same_as_reference("two steps, other options", two_steps(), options);
}

}  // namespace
}  // namespace sluice
