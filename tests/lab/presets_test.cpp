#include "lab/presets.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include "common/error.h"
#include "lab/model_parser.h"
#include "lab/model_source.h"
#include "support/temp_dir.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;

TEST(ModelPresets, TheIssuesPresetsAreAllThere) {
  std::set<std::string_view> names;
  for (const ModelPreset& p : model_presets()) names.insert(p.name);
  EXPECT_EQ(names, (std::set<std::string_view>{"ssd", "sas15k", "sata7k", "ramdisk", "raid-wt", "raid-wb", "iscsi-1g",
                                               "ssd-cliff"}));
}

TEST(ModelPresets, EveryPresetParsesAndSaysWhatItIsAndWhereItHolds) {
  for (const ModelPreset& p : model_presets()) {
    ModelSpec m;
    ASSERT_NO_THROW(m = parse_model(p.text, "preset " + std::string(p.name), std::string(p.name))) << p.name;
    EXPECT_FALSE(m.description.empty()) << p.name;
    EXPECT_FALSE(m.validity.empty()) << p.name;
    EXPECT_EQ(m.name, p.name);
  }
}

TEST(ModelPresets, EachPresetHasTheFeatureItIsNamedFor) {
  EXPECT_TRUE(load_model("sas15k").rotating());
  EXPECT_TRUE(load_model("sata7k").rotating());
  EXPECT_EQ(load_model("raid-wt").write_cache, WriteCacheMode::kWriteThrough);
  const ModelSpec wb = load_model("raid-wb");
  EXPECT_EQ(wb.write_cache, WriteCacheMode::kWriteBack);
  EXPECT_TRUE(wb.battery);
  EXPECT_GT(load_model("iscsi-1g").network_rtt.count(), 0);
  const ModelSpec cliff = load_model("ssd-cliff");
  EXPECT_EQ(cliff.cliff_after_bytes, cliff.size_bytes * 3 / 2);
}

TEST(ModelSource, AModelFileIsNamedAfterItsStem) {
  testing::TempDir dir;
  const std::string path = dir.file("slow-disk.model");
  std::ofstream(path) << "read_time = 5ms\n";
  const ModelSpec m = load_model(path);
  EXPECT_EQ(m.name, "slow-disk");
  EXPECT_EQ(m.read_time, std::chrono::milliseconds(5));
}

TEST(ModelSource, AModelFilesErrorsNameItsPathAndLine) {
  testing::TempDir dir;
  const std::string path = dir.file("bad.model");
  std::ofstream(path) << "read_time = 5ms\nservrs = 2\n";
  try {
    load_model(path);
    FAIL() << "accepted";
  } catch (const UserError& e) {
    EXPECT_EQ(std::string(e.what()), path + ":2: unknown key 'servrs'; did you mean 'servers'?");
  }
}

TEST(ModelSource, NeitherPresetNorFileSuggestsTheNearestPreset) {
  try {
    load_model("sas15");
    FAIL() << "accepted";
  } catch (const UserError& e) {
    EXPECT_THAT(e.what(), HasSubstr("sas15: not a preset and no such model file (did you mean sas15k?)"));
  }
}

}  // namespace
}  // namespace sluice
