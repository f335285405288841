#include "lab/truth_report.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "lab/model_source.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;

TEST(TruthJson, EveryRowHasTheIssuesFieldsWithTheirTypes) {
  const nlohmann::json j = truth_json(compute_truth(load_model("raid-wb")));
  EXPECT_EQ(j.at("model"), "raid-wb");
  EXPECT_EQ(j.at("latency_limit_ns"), 10000000);
  ASSERT_TRUE(j.at("expect").is_array());
  ASSERT_FALSE(j.at("expect").empty());
  for (const nlohmann::json& row : j.at("expect")) {
    EXPECT_TRUE(row.at("rw").is_string());
    EXPECT_TRUE(row.at("bs").is_number_unsigned());
    EXPECT_TRUE(row.at("iodepth").is_number_unsigned());
    EXPECT_TRUE(row.at("iops").is_number());
    EXPECT_TRUE(row.at("mean_lat_ns").is_number());
    EXPECT_TRUE(row.at("bw_bytes").is_number_unsigned());
    EXPECT_TRUE(row.at("what").is_string());
    EXPECT_TRUE(row.at("phase").is_string());
    EXPECT_TRUE(row.at("fsync").is_number_unsigned());
    EXPECT_TRUE(row.at("exact").is_boolean());
  }
  EXPECT_TRUE(j.at("notes").is_array());
}

TEST(TruthJson, NumbersAreThoseOfTheTruth) {
  const Truth t = compute_truth(load_model("ssd"));
  const nlohmann::json first = truth_json(t).at("expect").at(0);
  EXPECT_EQ(first.at("rw"), "randread");
  EXPECT_EQ(first.at("bs"), 4096);
  EXPECT_EQ(first.at("iodepth"), 1);
  EXPECT_NEAR(first.at("iops").get<double>(), t.rows[0].iops, 0.001);
  EXPECT_NEAR(first.at("mean_lat_ns").get<double>(), t.rows[0].mean_latency.count() * 1e9, 0.1);
}

TEST(TruthText, HeaderRowsAndNotes) {
  const std::string text = render_truth_text(compute_truth(load_model("sas15k")));
  EXPECT_THAT(text, HasSubstr("model sas15k: 15k rpm SAS disk"));
  EXPECT_THAT(text, HasSubstr("capacity at a mean latency of 10 ms"));
  EXPECT_THAT(text, HasSubstr("what          rw"));
  EXPECT_THAT(text, HasSubstr("randread     4 KiB     1  steady"));
  EXPECT_THAT(text, HasSubstr("- rotating: random rows assume"));
}

TEST(TruthText, ACapacityThatCannotBeMetSaysWhy) {
  Truth t;
  t.model = "slow";
  TruthRow r;
  r.what = "capacity";
  r.rw = "randread";
  r.bs = 4096;
  r.phase = "steady";
  r.mean_latency = Seconds(0.02);
  t.rows.push_back(r);
  EXPECT_THAT(render_truth_text(t), HasSubstr("cannot meet the limit: one request alone takes 20 ms"));
}

}  // namespace
}  // namespace sluice
