// sluice quick's "behaves like": the rule on the reference classes themselves, on the lab's model devices
// (their truth, src/lab/truth.h), on devices outside the classes' span, and on runs that missed a figure.
#include "method/quick_class.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "lab/model_source.h"
#include "lab/truth.h"
#include "method/quick.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;

QuickRow class_test_row(const char* key, double iops, double lat_mean_ns) {
  QuickRow row;
  row.key = key;
  row.test = key;
  row.iops = iops;
  row.lat_mean_ns = lat_mean_ns;
  return row;
}

std::vector<QuickRow> class_test_rows(double capacity_iops, double qd1_lat_ns) {
  // At depth 1, IOPS = 1 / latency (0 when nothing completed).
  const double qd1_iops = qd1_lat_ns > 0 ? 1e9 / qd1_lat_ns : 0;
  return {class_test_row("randread_capacity", capacity_iops, 1e6),
          class_test_row("randread_qd1", qd1_iops, qd1_lat_ns)};
}

// The truth row of `preset` for 4 KiB random reads at `depth`.
TruthRow class_truth_row(const std::string& preset, std::uint32_t depth) {
  const Truth truth = compute_truth(load_model(preset));
  for (const TruthRow& row : truth.rows) {
    if (row.what == "depth" && row.rw == "randread" && row.bs == 4096 && row.iodepth == depth) return row;
  }
  ADD_FAILURE() << preset << ": no 4 KiB randread truth row at depth " << depth;
  return {};
}

TEST(QuickClass, EachClassMatchesItselfAtDistanceZero) {
  for (const ReferenceClass& cls : kQuickReferenceClasses) {
    const BehavesLike b = match_reference_class(cls.iops, cls.lat_ns);
    EXPECT_EQ(b.class_name, cls.name);
    EXPECT_NEAR(b.distance, 0, 1e-12) << cls.name;
    EXPECT_FALSE(b.poor) << cls.name;
    EXPECT_EQ(b.distances.size(), kQuickReferenceClasses.size());
  }
}

TEST(QuickClass, DistanceCountsLatencyDecadesFullyAndIopsDecadesHalf) {
  const ReferenceClass& ssd = kQuickReferenceClasses[1];
  EXPECT_NEAR(class_distance(ssd.iops * 10, ssd.lat_ns, ssd), 0.5, 1e-12);
  EXPECT_NEAR(class_distance(ssd.iops, ssd.lat_ns * 10, ssd), 1.0, 1e-12);
  EXPECT_NEAR(class_distance(ssd.iops / 100, ssd.lat_ns / 10, ssd), std::sqrt(2.0), 1e-12);
}

// The lab's presets are named after the classes; their figures differ (one server for the ramdisk, 8 for the
// SSD), yet each must be classed as its name says.
TEST(QuickClass, LabPresetsTruthIsClassedAsTheirName) {
  for (const char* preset : {"ramdisk", "ssd", "sas15k", "sata7k"}) {
    const double iops = class_truth_row(preset, 32).iops;
    const double lat_ns = class_truth_row(preset, 1).mean_latency.count() * 1e9;
    const BehavesLike b = match_reference_class(iops, lat_ns);
    EXPECT_EQ(b.class_name, preset) << iops << " IOPS, " << lat_ns << " ns";
  }
}

// What sluice measured on the lab ramdisk (docs/lab.md fidelity: 9 900 IOPS, 137 us at depth 1) and on the
// lab ssd (about 9 800 IOPS, 0.82 ms).
TEST(QuickClass, LabPresetsAsMeasuredAreClassedAsTheirName) {
  EXPECT_EQ(match_reference_class(9900, 137e3).class_name, "ramdisk");
  EXPECT_EQ(match_reference_class(9800, 820e3).class_name, "ssd");
}

TEST(QuickClass, LabRamdiskIsAPoorMatchForItsTwentyTimesFewerIops) {
  const BehavesLike b = match_reference_class(9900, 137e3);
  EXPECT_TRUE(b.poor);
  EXPECT_EQ(b.beyond, "");
  EXPECT_THAT(behaves_like_line(b), HasSubstr("ramdisk, the nearest class but a poor match"));
}

TEST(QuickClass, NvmeAt20usIsFasterThanEveryClassNotSilentlyARamdisk) {
  const BehavesLike b = match_reference_class(500000, 20e3);
  EXPECT_EQ(b.class_name, "ramdisk");
  EXPECT_TRUE(b.poor);
  EXPECT_EQ(b.beyond, "faster");
  const std::string line = behaves_like_line(b);
  EXPECT_THAT(line, HasSubstr("poor match"));
  EXPECT_THAT(line, HasSubstr("faster than every class"));
}

TEST(QuickClass, UsbStickAt100msIsSlowerThanEveryClass) {
  const BehavesLike b = match_reference_class(10, 100e6);
  EXPECT_EQ(b.class_name, "sata7k");
  EXPECT_EQ(b.beyond, "slower");
}

TEST(QuickClass, FastNvmeWithinHalfADecadeIsACloseRamdisk) {
  const BehavesLike b = match_reference_class(400000, 60e3);
  EXPECT_EQ(b.class_name, "ramdisk");
  EXPECT_FALSE(b.poor);
  EXPECT_EQ(b.beyond, "");
}

TEST(QuickClass, FiguresComeFromTheCapacityCurvesPeakAndTheDepth1Mean) {
  std::vector<QuickRow> rows = class_test_rows(90, 11e6);
  rows[0].within_slo = false;  // concurrency 1 already above --slo: the row shows concurrency 1
  rows[0].capacity = {{"curve", {{{"iops", 90.0}}, {{"iops", 105.0}}, {{"iops", 101.0}}}}};
  const BehavesLike b = behaves_like_of(rows, false, true);
  EXPECT_EQ(b.iops, 105);
  EXPECT_EQ(b.lat_ns, 11e6);
  EXPECT_EQ(b.class_name, "sata7k");
}

TEST(QuickClass, Depth1IopsAboveTheCapacityCurveIsThePeak) {
  std::vector<QuickRow> rows = class_test_rows(61, 7.9e6);
  rows[1].iops = 126;
  EXPECT_EQ(behaves_like_of(rows, false, true).iops, 126);
}

TEST(QuickClass, MissingDepth1TestGivesNoClassAndSaysTheBudget) {
  std::vector<QuickRow> rows = class_test_rows(40000, 800e3);
  rows.pop_back();
  const BehavesLike b = behaves_like_of(rows, false, true);
  EXPECT_EQ(b.class_name, "");
  EXPECT_THAT(b.missing, HasSubstr("depth-1 test did not run (the budget ran out"));
  EXPECT_THAT(behaves_like_line(b), HasSubstr("behaves like: no class: "));
}

TEST(QuickClass, MissingCapacitySearchWhenInterruptedSaysSo) {
  std::vector<QuickRow> rows = class_test_rows(40000, 800e3);
  rows.erase(rows.begin());
  const BehavesLike b = behaves_like_of(rows, true, true);
  EXPECT_EQ(b.class_name, "");
  EXPECT_THAT(b.missing, HasSubstr("capacity search did not run (the run was interrupted"));
}

TEST(QuickClass, NoRowsNamesBothMissingFigures) {
  const BehavesLike b = behaves_like_of({}, false, true);
  EXPECT_THAT(b.missing, HasSubstr("capacity search"));
  EXPECT_THAT(b.missing, HasSubstr("depth-1 test"));
}

TEST(QuickClass, ZeroFiguresAreMissingNotAMatch) {
  const BehavesLike b = behaves_like_of(class_test_rows(0, 0), false, true);
  EXPECT_EQ(b.class_name, "");
  EXPECT_THAT(b.missing, HasSubstr("completed no read"));
}

TEST(QuickClass, BufferedIoIsSaid) {
  const BehavesLike b = behaves_like_of(class_test_rows(40000, 800e3), false, false);
  EXPECT_TRUE(b.buffered);
  EXPECT_THAT(behaves_like_line(b), HasSubstr("page cache"));
}

TEST(QuickClass, JsonNamesClassFiguresRuleAndEveryDistance) {
  const nlohmann::json j = behaves_like_json(match_reference_class(9800, 820e3));
  EXPECT_EQ(j["class"], "ssd");
  EXPECT_EQ(j["match"], "close");
  EXPECT_TRUE(j["beyond"].is_null());
  EXPECT_EQ(j["iops"], 9800.0);
  EXPECT_EQ(j["lat_ns"], 820e3);
  EXPECT_THAT(j["rule"].get<std::string>(), HasSubstr("log10"));
  ASSERT_EQ(j["classes"].size(), 4u);
  for (const nlohmann::json& c : j["classes"]) EXPECT_TRUE(c["distance"].is_number()) << c.dump();
  EXPECT_NEAR(j["distance"].get<double>(), j["classes"][1]["distance"].get<double>(), 1e-12);
}

TEST(QuickClass, JsonOfAMissingFigureHasNullClassAndTheReason) {
  const nlohmann::json j = behaves_like_json(behaves_like_of({}, false, true));
  EXPECT_TRUE(j["class"].is_null());
  EXPECT_THAT(j["missing"].get<std::string>(), HasSubstr("did not run"));
  EXPECT_FALSE(j.contains("distance"));
}

TEST(QuickClass, ClassesTextListsEachClassFastestFirst) {
  EXPECT_EQ(reference_classes_text(),
            "ramdisk 200k IOPS / 100 us, ssd 40k / 800 us, sas15k 180 / 9 ms, sata7k 100 / 12 ms");
}

TEST(QuickClass, TableAndSummaryCarryTheMatch) {
  QuickReport r;
  r.rows = class_test_rows(9800, 820e3);
  EXPECT_THAT(render_quick_table(r), HasSubstr("behaves like: ssd (distance 0.31 decades): 9800 IOPS"));
  EXPECT_EQ(quick_summary_json(r)["behaves_like"]["class"], "ssd");
}

}  // namespace
}  // namespace sluice
