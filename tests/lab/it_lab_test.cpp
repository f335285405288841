// sluice lab truth / lab models as a user runs them.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "support/it_test_util.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

using ::testing::HasSubstr;

TEST(LabCli, TruthOfAPresetIsATable) {
  const RunOutput r = run_binary({"lab", "truth", "ssd"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("model ssd: flash SSD"));
  EXPECT_THAT(r.out, HasSubstr("randread"));
  EXPECT_THAT(r.out, HasSubstr("knee"));
}

TEST(LabCli, TruthAsJsonUnderSluiceLabTruth) {
  const RunOutput r = run_binary({"lab", "truth", "sata7k", "--output-format=json", "--latency-limit=50ms"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  const nlohmann::json& truth = doc->at("sluice").at("lab").at("truth");
  EXPECT_EQ(truth.at("model"), "sata7k");
  EXPECT_EQ(truth.at("latency_limit_ns"), 50000000);
  bool seen = false;
  for (const nlohmann::json& row : truth.at("expect")) {
    for (const char* key : {"rw", "bs", "iodepth", "iops", "mean_lat_ns", "bw_bytes"})
      EXPECT_TRUE(row.contains(key)) << key;
    if (row.at("what") == "depth" && row.at("rw") == "randread" && row.at("iodepth") == 1) {
      seen = true;
      EXPECT_GT(row.at("iops").get<double>(), 90);  // the preset's class: about 100 random IOPS
      EXPECT_LT(row.at("iops").get<double>(), 110);
    }
  }
  EXPECT_TRUE(seen);
}

TEST(LabCli, ModelsListsEveryPresetWithItsDescription) {
  const RunOutput r = run_binary({"lab", "models"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  for (const char* name : {"ssd", "sas15k", "sata7k", "ramdisk", "raid-wt", "raid-wb", "iscsi-1g", "ssd-cliff"}) {
    EXPECT_THAT(r.out, HasSubstr(std::string("  ") + name + " ")) << name;
  }
  EXPECT_THAT(r.out, HasSubstr("battery-backed write-back"));
}

TEST(LabCli, ModelsNamePrintsThePresetsModelTextWhichParsesAsAFile) {
  const RunOutput r = run_binary({"lab", "models", "raid-wb"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("write_cache = write-back\n"));
  TempDir dir;
  const std::string path = dir.file("copy.model");
  std::ofstream(path) << r.out;
  const RunOutput copy = run_binary({"lab", "truth", path, "--output-format=json"});
  const RunOutput preset = run_binary({"lab", "truth", "raid-wb", "--output-format=json"});
  ASSERT_EQ(copy.exit_code, 0) << describe(copy);
  const auto a = parse_document(copy.out);
  const auto b = parse_document(preset.out);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->at("sluice").at("lab").at("truth").at("expect"), b->at("sluice").at("lab").at("truth").at("expect"));
}

TEST(LabCli, ATruthFromAModelFile) {
  TempDir dir;
  const std::string path = dir.file("two.model");
  std::ofstream(path) << "# two servers of 2 ms\nservers = 2\nread_time = 2ms\n";
  const RunOutput r = run_binary({"lab", "truth", path, "--output-format=json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  const nlohmann::json& first = doc->at("sluice").at("lab").at("truth").at("expect").at(0);
  EXPECT_EQ(first.at("iops"), 500);  // 1 / 2 ms
  EXPECT_EQ(first.at("mean_lat_ns"), 2000000);
}

TEST(LabCli, ABadModelFileNamesFileAndLine) {
  TempDir dir;
  const std::string path = dir.file("bad.model");
  std::ofstream(path) << "read_time = 1ms\nrpm = 7200\nseek_ful = 8ms\n";
  const RunOutput r = run_binary({"lab", "truth", path});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.err, HasSubstr(path + ":3: unknown key 'seek_ful'; did you mean 'seek_full'?"));
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(LabCli, UnknownModelAndActionSuggestTheNearest) {
  const RunOutput model = run_binary({"lab", "truth", "raid-wd"});
  EXPECT_EQ(model.exit_code, 1);
  EXPECT_THAT(model.err, HasSubstr("raid-wd: not a preset and no such model file (did you mean raid-wt?)"));
  const RunOutput action = run_binary({"lab", "truht", "ssd"});
  EXPECT_EQ(action.exit_code, 1);
  EXPECT_THAT(action.err,
              HasSubstr("lab truht: not an action; use truth, models, serve, stats, up, down or list; did you mean "
                        "'truth'?"));
  const RunOutput option = run_binary({"lab", "--no-such-option"});
  EXPECT_EQ(option.exit_code, 1);
  EXPECT_THAT(option.err, HasSubstr("--no-such-option"));
}

TEST(LabCli, HelpForTheCommandAndEachAction) {
  const RunOutput lab = run_binary({"lab", "--help"});
  ASSERT_EQ(lab.exit_code, 0) << describe(lab);
  EXPECT_THAT(lab.out, HasSubstr("usage: sluice lab"));
  EXPECT_THAT(lab.out, HasSubstr("seek_full = "));  // the model format's keys
  const RunOutput truth = run_binary({"lab", "truth", "--help"});
  ASSERT_EQ(truth.exit_code, 0) << describe(truth);
  EXPECT_THAT(truth.out, HasSubstr("usage: sluice lab truth [options] MODEL"));
  EXPECT_THAT(truth.out, HasSubstr("--latency-limit"));
  const RunOutput models = run_binary({"lab", "models", "--help"});
  ASSERT_EQ(models.exit_code, 0) << describe(models);
  EXPECT_THAT(models.out, HasSubstr("usage: sluice lab models"));
  const RunOutput up = run_binary({"lab", "up", "--help"});
  ASSERT_EQ(up.exit_code, 0) << describe(up);
  EXPECT_THAT(up.out, HasSubstr("usage: sluice lab up [options] MODEL DIR"));
  EXPECT_THAT(up.out, HasSubstr("--fs"));
  for (const char* action : {"down", "list"}) {
    const RunOutput help = run_binary({"lab", action, "--help"});
    ASSERT_EQ(help.exit_code, 0) << describe(help);
    EXPECT_THAT(help.out, HasSubstr(std::string("usage: sluice lab ") + action));
  }
  const RunOutput option = run_binary({"lab", "truth", "ssd", "--latency-limt=5ms"});
  EXPECT_EQ(option.exit_code, 1);
  EXPECT_THAT(option.err, HasSubstr("latency-limit"));
}

// docs/lab.md's presets section is what the binary says: each preset's model text and its truth table,
// verbatim (scripts/lab-presets-doc.py rewrites the section).
TEST(LabDocs, ThePresetsSectionIsWhatTheBinarySays) {
  std::ifstream in(std::string(SLUICE_SOURCE_DIR) + "/docs/lab.md");
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  ASSERT_FALSE(doc.empty());
  for (const char* name : {"ssd", "sas15k", "sata7k", "ramdisk", "raid-wt", "raid-wb", "iscsi-1g", "ssd-cliff"}) {
    const RunOutput model = run_binary({"lab", "models", name});
    const RunOutput truth = run_binary({"lab", "truth", name});
    ASSERT_EQ(model.exit_code, 0) << describe(model);
    EXPECT_THAT(doc, HasSubstr("```\n" + model.out + "```\n")) << name << ": run scripts/lab-presets-doc.py";
    EXPECT_THAT(doc, HasSubstr(std::string("$ sluice lab truth ") + name + "\n" + truth.out))
        << name << ": run scripts/lab-presets-doc.py";
  }
}

}  // namespace
}  // namespace sluice::testing
