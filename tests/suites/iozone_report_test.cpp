// iozone 3.414's report layout (the samples in classic-suites.md section 2.4), the -R tables, the -b CSV and
// the rate computation.
#include "suites/iozone_report.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace sluice {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

IozonePass pass(std::uint64_t kbps) {
  IozonePass p;
  p.ran = true;
  p.kb_per_s = kbps;
  return p;
}

// The first row of the 3.414 sample: 64 KB file, 4 KB records, all thirteen columns.
IozoneCellResult sample_row() {
  IozoneCellResult r;
  r.cell = {64, 4};
  const std::uint64_t values[] = {551422,  3738358, 6421025, 4564786, 1310683, 1336792, 3057153,
                                  3791156, 5389653, 1101022, 1310683, 4897948, 4988978};
  for (std::size_t i = 0; i < r.passes.size(); ++i) r.passes[i] = pass(values[i]);
  return r;
}

TEST(IozoneReport, RowIsTheSamplesLayout) {
  EXPECT_EQ(render_iozone_row(sample_row()),
            "              64       4  551422 3738358  6421025  4564786 1310683 1336792 3057153  3791156  5389653  "
            "1101022  1310683 4897948  4988978\n");
}

TEST(IozoneReport, WideValuesRunIntoTheNextFieldAsIn3414) {
  IozoneCellResult r;
  r.cell = {64, 16};
  r.passes[2] = pass(20962191);
  r.passes[3] = pass(10402178);
  r.passes[4] = pass(10821524);
  EXPECT_THAT(render_iozone_row(r), HasSubstr(" 20962191 1040217810821524"));
}

TEST(IozoneReport, UnselectedColumnsAreBlankAndTitlesMatch) {
  IozoneCellResult r;
  r.cell = {32768, 64};
  r.passes[0] = pass(1892243);
  r.passes[1] = pass(4930579);
  const std::string row = render_iozone_row(r);
  EXPECT_THAT(row, StartsWith("           32768      64 1892243 4930579   "));
  EXPECT_EQ(row.size(), 136u);  // 135 columns and the newline, as the title line
  EXPECT_THAT(render_iozone_titles(),
              HasSubstr("              KB  reclen   write rewrite    read    reread    read   write    read  rewrite"
                        "     read   fwrite frewrite   fread  freread\n"));
}

TEST(IozoneReport, ExcelTablesListEveryRecordAndZeroForSkippedCells) {
  IozoneOptions o;
  o.auto_mode = true;
  o.tests = {0};
  IozonePlan plan;
  plan.selected[0] = true;
  plan.file_sizes_kb = {64, 32768};
  plan.record_sizes_kb = {4, 8, 16, 32, 64};
  std::vector<IozoneCellResult> cells;
  for (std::uint64_t rec : {4, 8, 16, 32, 64}) {
    IozoneCellResult c;
    c.cell = {64, rec};
    c.passes[0] = pass(rec * 1000);
    c.passes[1] = pass(rec * 2000);
    cells.push_back(c);
  }
  IozoneCellResult big;
  big.cell = {32768, 64};
  big.passes[0] = pass(1892243);
  big.passes[1] = pass(4930579);
  cells.push_back(big);
  const std::string excel = render_iozone_excel(o, plan, cells);
  EXPECT_THAT(excel,
              StartsWith("Excel output is below:\n\n\"Writer report\"\n        \"4\"  \"8\"  \"16\"  \"32\"  \"64\"\n"
                         "\"64\"   4000  8000  16000  32000  64000 \n"
                         "\"32768\"   0  0  0  0  1892243 \n"));
  EXPECT_THAT(excel, HasSubstr("\n\"Re-writer report\"\n"));
  EXPECT_THAT(excel, Not(HasSubstr("Reader report")));
  const std::string csv = render_iozone_excel_csv(o, plan, cells);
  EXPECT_THAT(
      csv, StartsWith("\"Writer report\"\n,4,8,16,32,64\n64,4000,8000,16000,32000,64000\n32768,0,0,0,0,1892243\n\n"));
  o.cpu = true;
  cells[0].passes[0].cpu_percent = 32;
  EXPECT_THAT(render_iozone_excel(o, plan, cells),
              HasSubstr("\n\"Writer CPU utilization report (Zero values should be ignored)\"\n        \"4\""
                        "  \"8\"  \"16\"  \"32\"  \"64\"\n\"64\"    32.00   0.00"));
}

TEST(IozoneReport, RateIsTruncatedKibPerSecondAfterTheResolution) {
  IozonePass p;
  iozone_rate(1 << 20, 1'000'001'000, 1000, p);  // 1 MiB in 1 s once the 1 us resolution is taken off
  EXPECT_DOUBLE_EQ(p.seconds, 1.0);
  EXPECT_EQ(p.kb_per_s, 1024u);
  iozone_rate(1000, 3'000'000'000, 1, p);  // 333.3 B/s >> 10 = 0
  EXPECT_EQ(p.kb_per_s, 0u);
  iozone_rate(4096, 0, 1000, p);  // never below the resolution
  EXPECT_DOUBLE_EQ(p.seconds, 1e-6);
}

TEST(IozoneReport, PageCacheLintAndCsv) {
  EXPECT_EQ(iozone_cache_state(1 << 20, 2 << 20, false), IozoneCache::kFits);
  EXPECT_EQ(iozone_cache_state(4 << 20, 2 << 20, false), IozoneCache::kLarger);
  EXPECT_EQ(iozone_cache_state(1 << 20, 2 << 20, true), IozoneCache::kDirect);
  IozoneOptions o;
  const std::string csv = render_iozone_csv(o, {sample_row()}, 1 << 20);
  EXPECT_EQ(csv,
            "file_kb,reclen_kb,write,rewrite,read,reread,random_read,random_write,backward_read,record_rewrite,"
            "stride_read,fwrite,frewrite,fread,freread,page_cache\n"
            "64,4,551422,3738358,6421025,4564786,1310683,1336792,3057153,3791156,5389653,1101022,1310683,4897948,"
            "4988978,fits\n");
}

TEST(IozoneReport, JsonHoldsEveryCellWithBytesSecondsAndRate) {
  IozoneOptions o;
  IozonePlan plan = plan_iozone(o);
  IozoneRunResult r;
  IozoneCellResult c;
  c.cell = {512, 4};
  iozone_rate(512 * 1024, 2'000'000, 1, c.passes[0]);
  c.passes[0].ran = true;
  r.cells.push_back(c);
  const nlohmann::json j = iozone_json(o, plan, r, 1 << 30);
  ASSERT_EQ(j["cells"].size(), 1u);
  const nlohmann::json& w = j["cells"][0]["tests"]["write"];
  EXPECT_EQ(w["bytes"], 512 * 1024);
  EXPECT_EQ(w["kB_per_s"].get<std::uint64_t>(),
            static_cast<std::uint64_t>(w["bytes"].get<double>() / w["seconds"].get<double>()) >> 10);
  EXPECT_FALSE(j["cells"][0]["tests"].contains("read"));
  EXPECT_EQ(j["version_followed"], "3.414");
  EXPECT_EQ(j["cells"][0]["page_cache"], "fits");
}

}  // namespace
}  // namespace sluice
