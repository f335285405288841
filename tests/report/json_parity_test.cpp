// Key and type parity of render_json with real fio 3.33 outputs (tests/report/fixtures).
//
// Compared: every key fio writes at the top level, in a job entry, in each direction, in "sync", in the
// depth and latency maps and in "disk_util" entries, recursively, with the same JSON type (integer vs
// float vs string vs object). Not compared: the contents of "percentile" (the keys follow the percentile
// list) and "bins" (they follow the histogram), "job options" (they echo what the user gave), and the
// top-level "global options", which fio writes only for options of a [global] section: a RunResult keeps
// each job's options whole, so sluice has no such section to echo. No leniency on number types was needed:
// fio writes each key with one type in all fixtures, and sluice writes the same.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "report/reporters.h"
#include "report_test_support.h"

namespace sluice {
namespace {

const std::vector<std::string> kFixtures = {
    "fio_psync_randread.json", "fio_psync_group_reporting.json",    "fio_libaio_lat_slat_percentiles.json",
    "fio_null_jsonplus.json",  "fio_global_two_jobs_jsonplus.json", "fio_psync_fsync.json",
};

const std::set<std::string> kSkippedKeys = {"percentile", "bins", "job options", "global options"};

std::string type_name(const nlohmann::json& j) {
  if (j.is_number_integer()) return "integer";
  if (j.is_number_float()) return "float";
  return j.type_name();
}

// Appends "path: problem" for every key of expected missing from actual or of another type.
void compare(const nlohmann::json& expected, const nlohmann::json& actual, const std::string& path,
             std::vector<std::string>& problems) {
  if (type_name(expected) != type_name(actual)) {
    problems.push_back(path + ": fio has " + type_name(expected) + ", sluice has " + type_name(actual));
    return;
  }
  if (expected.is_object()) {
    for (const auto& [key, value] : expected.items()) {
      if (kSkippedKeys.count(key)) continue;
      if (!actual.contains(key)) {
        problems.push_back(path + "/" + key + ": missing");
        continue;
      }
      compare(value, actual.at(key), path + "/" + key, problems);
    }
  } else if (expected.is_array() && !expected.empty() && !actual.empty()) {
    compare(expected.front(), actual.front(), path + "[0]", problems);
  }
}

nlohmann::json sluice_output() {
  RunResult run = test::make_run({test::make_job("a", 1000, 500)});
  run.groups.front().jobs.front().sync.ios = 10;
  for (int i = 0; i < 10; ++i) run.groups.front().jobs.front().sync.lat.record(300'000 + i);
  return render_json(run, true);
}

TEST(JsonParityCheck, DetectsMissingKeysAndTypeChanges) {
  const nlohmann::json fio = {{"a", 1}, {"b", {{"c", 1.5}, {"d", "x"}}}};
  const nlohmann::json ours = {{"a", 1.0}, {"b", {{"d", "x"}}}};
  std::vector<std::string> problems;
  compare(fio, ours, "", problems);
  EXPECT_EQ(problems, (std::vector<std::string>{"/a: fio has integer, sluice has float", "/b/c: missing"}));
}

class JsonParity : public ::testing::TestWithParam<std::string> {};

TEST_P(JsonParity, EveryFioKeyIsPresentWithFiosType) {
  const nlohmann::json fio = test::load_fixture(GetParam());
  const nlohmann::json ours = sluice_output();
  std::vector<std::string> problems;
  compare(fio, ours, "", problems);
  EXPECT_TRUE(problems.empty()) << ::testing::PrintToString(problems);
}

TEST_P(JsonParity, PercentileKeysMatchFiosDefaultList) {
  const nlohmann::json fio = test::load_fixture(GetParam());
  const nlohmann::json ours = sluice_output();
  const nlohmann::json& fio_clat = fio.at("jobs").at(0).at("write").contains("clat_ns") &&
                                           fio.at("jobs").at(0).at("write").at("clat_ns").contains("percentile")
                                       ? fio.at("jobs").at(0).at("write").at("clat_ns")
                                       : fio.at("jobs").at(0).at("read").at("clat_ns");
  ASSERT_TRUE(fio_clat.contains("percentile"));
  std::set<std::string> fio_keys, our_keys;
  for (const auto& [k, v] : fio_clat.at("percentile").items()) fio_keys.insert(k);
  for (const auto& [k, v] : ours.at("jobs").at(0).at("read").at("clat_ns").at("percentile").items()) our_keys.insert(k);
  EXPECT_EQ(fio_keys, our_keys);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, JsonParity, ::testing::ValuesIn(kFixtures),
                         [](const ::testing::TestParamInfo<std::string>& fixture) {
                           std::string name = fixture.param.substr(0, fixture.param.find('.'));
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

TEST(JsonParity, JobKeysComeInFiosOrder) {
  const nlohmann::json fio = test::load_fixture("fio_psync_randread.json");
  const nlohmann::ordered_json ours = render_json_ordered(test::make_run({test::make_job("a", 10, 10)}), false);
  std::vector<std::string> fio_order, our_order;
  // The fixture was re-serialized by Python, which keeps insertion order, but nlohmann::json sorts: read
  // the order from the raw text instead.
  const std::string raw = test::read_text(test::fixture_path("fio_psync_randread.json"));
  for (const auto& [key, value] : ours.at("jobs").at(0).items()) our_order.push_back(key);
  std::size_t last = 0;
  for (const std::string& key : our_order) {
    if (!fio.at("jobs").at(0).contains(key)) continue;
    const std::size_t at = raw.find("\"" + key + "\"", last);
    EXPECT_NE(at, std::string::npos) << key << " out of fio's order";
    if (at != std::string::npos) last = at;
  }
}

}  // namespace
}  // namespace sluice
