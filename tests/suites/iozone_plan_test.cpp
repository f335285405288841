// iozone's auto matrix and crossover rule (classic-suites.md section 2.1) and its size units.
#include "suites/iozone_plan.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

#include "common/error.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;

std::map<std::uint64_t, std::vector<std::uint64_t>> records_by_file(const IozonePlan& plan) {
  std::map<std::uint64_t, std::vector<std::uint64_t>> out;
  for (const IozoneCell& c : plan.cells) out[c.file_kb].push_back(c.rec_kb);
  return out;
}

std::string error_of(const IozoneOptions& o) {
  try {
    plan_iozone(o);
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

TEST(IozonePlan, SizesAreKilobytesUnlessSuffixed) {
  EXPECT_EQ(parse_iozone_kb("512"), 512u);
  EXPECT_EQ(parse_iozone_kb("4k"), 4u);
  EXPECT_EQ(parse_iozone_kb("16m"), 16u * 1024);
  EXPECT_EQ(parse_iozone_kb("1g"), 1024u * 1024);
  EXPECT_FALSE(parse_iozone_kb("0"));
  EXPECT_EQ(parse_iozone_kb("1536"), 1536u);

  EXPECT_FALSE(parse_iozone_kb("4x"));
}

TEST(IozonePlan, DefaultAutoMatrixHas126CellsWithTheCrossover) {
  IozoneOptions o;
  o.auto_mode = true;
  const IozonePlan plan = plan_iozone(o);
  EXPECT_EQ(plan.cells.size(), 126u);
  ASSERT_EQ(plan.file_sizes_kb.size(), 14u);
  EXPECT_EQ(plan.file_sizes_kb.front(), 64u);
  EXPECT_EQ(plan.file_sizes_kb.back(), 524288u);
  EXPECT_EQ(plan.record_sizes_kb.size(), 13u);
  const auto rows = records_by_file(plan);
  EXPECT_EQ(rows.at(64), (std::vector<std::uint64_t>{4, 8, 16, 32, 64}));
  EXPECT_EQ(rows.at(16384).size(), 13u);   // 16 MB is not above the crossover: 4 KB .. 16 MB
  EXPECT_EQ(rows.at(32768).front(), 64u);  // 32 MB and up: 64 KB .. 16 MB, 9 records
  EXPECT_EQ(rows.at(524288).size(), 9u);
  EXPECT_EQ(plan.cells.front(), (IozoneCell{64, 4}));
  EXPECT_EQ(plan.cells[5], (IozoneCell{128, 4}));  // file size ascending, then record size
}

TEST(IozonePlan, SampleMatrixOfMinus_g_1m) {
  IozoneOptions o;
  o.auto_mode = true;
  o.max_file_kb = 1024;
  const auto rows = records_by_file(plan_iozone(o));
  ASSERT_EQ(rows.size(), 5u);
  for (const auto& [file, recs] : rows) EXPECT_EQ(recs.back(), file) << file;  // records up to the file size
  EXPECT_EQ(rows.at(1024).size(), 9u);
}

TEST(IozonePlan, CrossoverOffWithMinus_zAndWithRecordOrSizeOptions) {
  IozoneOptions o;
  o.auto_mode = true;
  o.min_file_kb = 32768;
  o.max_file_kb = 32768;
  EXPECT_EQ(plan_iozone(o).cells.size(), 9u);
  EXPECT_EQ(plan_iozone(o).xover_kb, 16384u);
  IozoneOptions z = o;
  z.no_crossover = true;
  EXPECT_EQ(plan_iozone(z).cells.size(), 13u);
  IozoneOptions q = o;
  q.max_rec_kb = 16384;
  EXPECT_EQ(plan_iozone(q).cells.size(), 13u);  // -q given: the rule is off
  IozoneOptions y = o;
  y.min_rec_kb = 4;
  EXPECT_EQ(plan_iozone(y).xover_kb, 0u);
}

TEST(IozonePlan, WithoutAutoOneCellPerSizeAndRecord) {
  IozoneOptions o;
  EXPECT_EQ(plan_iozone(o).cells, (std::vector<IozoneCell>{{512, 4}}));
  o.file_kb = {256, 1024};
  o.rec_kb = {4, 64};
  EXPECT_EQ(plan_iozone(o).cells.size(), 4u);
}

TEST(IozonePlan, BadInputIsRefusedByName) {
  IozoneOptions big;
  big.file_kb = {64};
  big.rec_kb = {128};
  EXPECT_THAT(error_of(big), HasSubstr("-r 128k: the record (128 KiB) is larger than the file (-s 64k"));
  IozoneOptions reads;
  reads.tests = {1};
  EXPECT_THAT(error_of(reads), HasSubstr("-i 1 reads the file that test 0 writes: add -i 0"));
  IozoneOptions mixed;
  mixed.tests = {0, 8};
  EXPECT_THAT(error_of(mixed), HasSubstr("-i 8: sluice iozone runs tests 0-7"));
  IozoneOptions range;
  range.auto_mode = true;
  range.min_file_kb = 2048;
  range.max_file_kb = 1024;
  EXPECT_THAT(error_of(range), HasSubstr("-n 2048k is above the maximum file size -g 1024k"));
}

TEST(IozonePlan, TestSelection) {
  IozoneOptions o;
  o.tests = {0, 2};
  const IozonePlan plan = plan_iozone(o);
  EXPECT_TRUE(plan.selected[0]);
  EXPECT_FALSE(plan.selected[1]);
  EXPECT_TRUE(plan.selected[2]);
  IozoneOptions all;
  for (bool s : plan_iozone(all).selected) EXPECT_TRUE(s);
}

}  // namespace
}  // namespace sluice
