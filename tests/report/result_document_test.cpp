// result_document(): the envelope every command's JSON document gets (fio's keys in fio's order and layout,
// sluice's version, command and schema version under "sluice"), its refusals, and the schema file that
// describes it (docs/schema/sluice-result.schema.json) agreeing with the code's version and keys.
#include "report/result_document.h"

#include <gtest/gtest.h>

#include <ctime>
#include <fstream>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include "report/reporters.h"
#include "report_test_support.h"
#include "version.h"

namespace sluice {
namespace {

using ojson = nlohmann::ordered_json;

constexpr std::uint64_t kStartMs = 1'764'822'600'123;  // 2025-12-04 04:30:00.123 UTC

std::vector<std::string> keys_of(const ojson& object) {
  std::vector<std::string> keys;
  for (auto it = object.begin(); it != object.end(); ++it) keys.push_back(it.key());
  return keys;
}

TEST(ResultDocument, EnvelopeKeysComeFirstThenTheCommandsThenSluice) {
  const ojson doc = result_document_ordered(ResultEnvelope{"run", kStartMs, "", std::nullopt},
                                            ojson{{"jobs", ojson::array()}, {"disk_util", ojson::array()}},
                                            ojson{{"interrupted", false}});
  EXPECT_EQ(keys_of(doc), (std::vector<std::string>{"fio version", "timestamp", "timestamp_ms", "time", "jobs",
                                                    "disk_util", "sluice"}));
  EXPECT_EQ(keys_of(doc.at("sluice")),
            (std::vector<std::string>{"version", "command", "schema_version", "interrupted"}));
}

TEST(ResultDocument, TimesAreFiosSecondsMillisecondsAndCtimeText) {
  const nlohmann::json doc = result_document(ResultEnvelope{"iozone", kStartMs, "", std::nullopt}, {}, {});
  EXPECT_EQ(doc.at("timestamp").get<std::uint64_t>(), kStartMs / 1000);
  EXPECT_EQ(doc.at("timestamp_ms").get<std::uint64_t>(), kStartMs);
  const std::time_t seconds = static_cast<std::time_t>(kStartMs / 1000);
  std::tm local{};
  ASSERT_NE(localtime_r(&seconds, &local), nullptr);
  char expected[64];
  std::strftime(expected, sizeof expected, "%a %b %e %H:%M:%S %Y", &local);
  EXPECT_EQ(doc.at("time").get<std::string>(), expected);
  EXPECT_EQ(ctime_text(kStartMs), expected);
  // ctime()'s layout: the day of the month padded with a space, as fio prints it.
  EXPECT_TRUE(std::regex_match(ctime_text(kStartMs),
                               std::regex(R"([A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9]\d \d\d:\d\d:\d\d \d{4})")))
      << ctime_text(kStartMs);
}

TEST(ResultDocument, SluiceSectionNamesVersionCommandAndSchemaVersion) {
  const nlohmann::json doc = result_document(ResultEnvelope{"sysbench fileio run", kStartMs, "", std::nullopt}, {},
                                             {{"sysbench", {{"threads", 2}}}});
  EXPECT_EQ(doc.at("fio version"), std::string("sluice-") + SLUICE_VERSION);
  const nlohmann::json& s = doc.at("sluice");
  EXPECT_EQ(s.at("version"), SLUICE_VERSION);
  EXPECT_EQ(s.at("command"), "sysbench fileio run");
  EXPECT_EQ(s.at("schema_version"), kResultSchemaVersion);
  EXPECT_EQ(s.at("sysbench").at("threads"), 2);
  EXPECT_FALSE(s.contains("clock_source")) << "written only when the command timed with sluice's clock";
}

TEST(ResultDocument, GivenVersionAndClockSourceAreWritten) {
  // A merged result (interfere's phases, a cluster's ranks) keeps the version its runs had.
  const nlohmann::json doc = result_document(ResultEnvelope{"interfere", kStartMs, "0.9.1", "rdtsc"}, {}, {});
  EXPECT_EQ(doc.at("fio version"), "sluice-0.9.1");
  EXPECT_EQ(doc.at("sluice").at("version"), "0.9.1");
  EXPECT_EQ(doc.at("sluice").at("clock_source"), "rdtsc");
}

TEST(ResultDocument, APartHoldingAnEnvelopeKeyIsABug) {
  const ResultEnvelope e{"run", kStartMs, "", std::nullopt};
  for (const char* key : {"fio version", "timestamp", "timestamp_ms", "time", "sluice"}) {
    EXPECT_THROW(result_document(e, {{key, 1}}, {}), std::logic_error) << key;
  }
  for (const char* key : {"version", "command", "schema_version", "clock_source"}) {
    EXPECT_THROW(result_document(e, {}, {{key, 1}}), std::logic_error) << key;
  }
  EXPECT_THROW(result_document(e, nlohmann::json::array(), {}), std::logic_error);
  EXPECT_THROW(result_document(ResultEnvelope{"", kStartMs, "", std::nullopt}, {}, {}), std::logic_error);
}

// render_json's document (run and every method) goes through the same envelope.
TEST(ResultDocument, ARunsDocumentNamesItsCommandRunUnlessAMethodSetOne) {
  RunResult result = test::make_run({test::make_job("a", 1000, 0)});
  result.timestamp_ms = kStartMs;
  result.clock_source = "rdtsc";
  nlohmann::json doc = render_json(result, false);
  EXPECT_EQ(doc.at("sluice").at("command"), "run");
  EXPECT_EQ(doc.at("sluice").at("schema_version"), kResultSchemaVersion);
  EXPECT_EQ(doc.at("sluice").at("clock_source"), "rdtsc");
  EXPECT_EQ(doc.at("timestamp_ms").get<std::uint64_t>(), kStartMs);
  result.command = "capacity";
  result.clock_source.clear();  // a result without one (a run interrupted before it started) still names it
  doc = render_json(result, false);
  EXPECT_EQ(doc.at("sluice").at("command"), "capacity");
  EXPECT_EQ(doc.at("sluice").at("clock_source"), "");
}

nlohmann::json schema_file() {
  std::ifstream in(std::string(SLUICE_SOURCE_DIR) + "/docs/schema/sluice-result.schema.json");
  return nlohmann::json::parse(in);
}

// The schema is the contract's text: its version is the code's, and it requires what the writer writes.
TEST(ResultDocument, SchemaFileStatesTheCurrentVersionAndTheEnvelopesKeys) {
  const nlohmann::json schema = schema_file();
  const nlohmann::json& sluice = schema.at("properties").at("sluice");
  EXPECT_EQ(sluice.at("properties").at("schema_version").at("const"), kResultSchemaVersion)
      << "bump docs/schema/sluice-result.schema.json with kResultSchemaVersion";
  EXPECT_EQ(schema.at("required"), nlohmann::json({"fio version", "timestamp", "timestamp_ms", "time", "sluice"}));
  EXPECT_EQ(sluice.at("required"), nlohmann::json({"version", "command", "schema_version"}));
  const nlohmann::json doc = result_document(ResultEnvelope{"run", kStartMs, "", "rdtsc"}, {}, {});
  for (const auto& [key, value] : doc.items()) EXPECT_TRUE(schema.at("properties").contains(key)) << key;
  for (const auto& [key, value] : doc.at("sluice").items()) EXPECT_TRUE(sluice.at("properties").contains(key)) << key;
}

}  // namespace
}  // namespace sluice
