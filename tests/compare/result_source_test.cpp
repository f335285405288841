#include "compare/result_source.h"

#include <gtest/gtest.h>

#include <fstream>

#include "common/error.h"
#include "common/result_schema.h"
#include "support/temp_dir.h"

namespace sluice {
namespace {

using testing::TempDir;

std::string write(const TempDir& dir, const std::string& name, const std::string& text) {
  const std::string path = dir.file(name);
  std::ofstream(path) << text;
  return path;
}

const char* kDoc = R"({"fio version": "fio-3.33", "jobs": [{"jobname": "j", "read": {"iops": 5, "total_ios": 5}}]})";

ResultSet no_lookup(std::string_view ref) { throw UserError(std::string(ref) + ": lookup called"); }

std::string error_of(const std::string& ref, const HistoryLookup& lookup = no_lookup) {
  try {
    load_result_set(ref, lookup);
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

TEST(ResultSource, OneFileIsOneRepetition) {
  TempDir dir;
  const ResultSet set = load_result_set(write(dir, "a.json", kDoc), no_lookup);
  EXPECT_EQ(set.origin, "file");
  ASSERT_EQ(set.repetitions.size(), 1u);
  EXPECT_EQ(set.repetitions[0]["jobs"][0]["jobname"], "j");
}

TEST(ResultSource, CommaListGivesOneRepetitionPerFile) {
  TempDir dir;
  const std::string a = write(dir, "a1.json", kDoc);
  const std::string b = write(dir, "a2.json", kDoc);
  const ResultSet set = load_result_set(a + "," + b + "," + a, no_lookup);
  EXPECT_EQ(set.origin, "files");
  EXPECT_EQ(set.repetitions.size(), 3u);
  EXPECT_NE(error_of(a + "," + dir.file("nope.json")).find("nope.json: no such file"), std::string::npos);
}

TEST(ResultSource, ExportedResultGivesItsRepetitions) {
  TempDir dir;
  const std::string text =
      std::string(R"({"id": "x1", "label": "before", "repetitions": [)") + kDoc + "," + kDoc + "]}";
  EXPECT_EQ(load_result_set(write(dir, "export.json", text), no_lookup).repetitions.size(), 2u);
}

TEST(ResultSource, SkipsNotesBeforeTheDocument) {
  TempDir dir;
  const std::string text = std::string("note: both iodepth >= 1 and synchronous I/O engine are selected\n") + kDoc;
  EXPECT_EQ(load_result_set(write(dir, "fio.json", text), no_lookup).repetitions.size(), 1u);
}

TEST(ResultSource, ReadsTheDocumentBeforeANormalReport) {
  TempDir dir;
  const std::string text = std::string(kDoc) + "\nj: (groupid=0, jobs=1): err= 0\n";
  EXPECT_EQ(load_result_set(write(dir, "both.json", text), no_lookup).repetitions.size(), 1u);
}

TEST(ResultSource, NotAFileGoesToTheLookup) {
  const ResultSet set = load_result_set("before", [](std::string_view ref) {
    return ResultSet{std::string(ref), "history", {nlohmann::json::parse(kDoc)}};
  });
  EXPECT_EQ(set.origin, "history");
  EXPECT_EQ(set.name, "before");
  EXPECT_EQ(error_of("before"), "before: lookup called");
}

TEST(ResultSource, CorruptAndForeignJsonAreRefusedInOneLine) {
  TempDir dir;
  const std::string corrupt = error_of(write(dir, "c.json", R"({"jobs": [)"));
  EXPECT_NE(corrupt.find("c.json: not valid JSON"), std::string::npos) << corrupt;
  const std::string foreign = error_of(write(dir, "f.json", R"({"name": "package", "version": "1.0"})"));
  EXPECT_NE(foreign.find("f.json: not a sluice or fio result"), std::string::npos) << foreign;
  EXPECT_EQ(corrupt.find('\n'), std::string::npos);
  EXPECT_EQ(foreign.find('\n'), std::string::npos);
}

// A document names its result schema version ("sluice"."schema_version"); one without is a legacy version 0.
std::string doc_of_schema(const std::string& version) {
  return R"({"fio version": "sluice-0.1", "jobs": [], "sluice": {"command": "run", "schema_version": )" + version +
         "}}";
}

TEST(ResultSource, LegacyAndCurrentSchemaVersionsAreRead) {
  TempDir dir;
  EXPECT_EQ(load_result_set(write(dir, "legacy.json", kDoc), no_lookup).repetitions.size(), 1u);
  const std::string current = doc_of_schema(std::to_string(kResultSchemaVersion));
  EXPECT_EQ(load_result_set(write(dir, "current.json", current), no_lookup).repetitions.size(), 1u);
}

TEST(ResultSource, ANewerSchemaVersionIsRefusedNamingBothVersions) {
  TempDir dir;
  const std::string newer = std::to_string(kResultSchemaVersion + 1);
  const std::string e = error_of(write(dir, "new.json", doc_of_schema(newer)));
  EXPECT_NE(e.find("new.json: result schema version " + newer + " is newer than this sluice's (" +
                   std::to_string(kResultSchemaVersion) + ")"),
            std::string::npos)
      << e;
  EXPECT_EQ(e.find('\n'), std::string::npos);
  // Through the history lookup too, and in an exported result's repetitions.
  const auto lookup = [&](std::string_view) {
    return ResultSet{"id", "history", {nlohmann::json::parse(doc_of_schema(newer))}};
  };
  EXPECT_NE(error_of("abcd1234", lookup).find("abcd1234: result schema version " + newer), std::string::npos);
  const std::string exported = R"({"repetitions": [)" + doc_of_schema(newer) + "]}";
  EXPECT_NE(error_of(write(dir, "export.json", exported)).find("is newer than this sluice's"), std::string::npos);
}

TEST(ResultSource, ASchemaVersionThatIsNotAWholeNumberIsRefused) {
  TempDir dir;
  for (const char* bad : {"\"1\"", "-1", "1.5"}) {
    const std::string e = error_of(write(dir, "bad.json", doc_of_schema(bad)));
    EXPECT_NE(e.find("bad.json: \"sluice\".\"schema_version\" is"), std::string::npos) << bad << ": " << e;
  }
}

// Found by the result_input fuzzer (2026-12-01): a number beyond a double's range made the JSON reader throw
// out_of_range, which reached the user as an internal error.
TEST(ResultSource, ANumberBeyondADoublesRangeIsRefusedInOneLine) {
  TempDir dir;
  const std::string huge = error_of(write(dir, "n.json", R"({"jobs": [], "x": 1795e93168301})"));
  EXPECT_NE(huge.find("n.json: not a result sluice can read"), std::string::npos) << huge;
  EXPECT_EQ(huge.find('\n'), std::string::npos);
}

}  // namespace
}  // namespace sluice
