// fio's terse output (render_terse): field counts per version as fio 3.33 writes them, field positions of
// fio's HOWTO ("Terse output"), units (us, KiB/s) and fio's folding of the ns buckets into the first us one.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "report/report_test_support.h"
#include "report/reporters.h"

namespace sluice {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

std::vector<std::string> fields_of(const std::string& line) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t semi = line.find(';', start);
    out.push_back(line.substr(start, semi - start));
    if (semi == std::string::npos) return out;
    start = semi + 1;
  }
}

// The fields of the only line of a one-job run; without disk statistics unless with_disks.
std::vector<std::string> terse_fields(RunResult run, int version, bool with_disks = false) {
  if (!with_disks) run.disks.clear();
  const std::vector<std::string> lines = lines_of(render_terse(run, version));
  EXPECT_EQ(lines.size(), 1u);
  return lines.empty() ? std::vector<std::string>{} : fields_of(lines.front());
}

TEST(TerseReport, FieldCountsAreFios) {
  // fio 3.33 --minimal on one job: v2 161, v3 121, v4 162, v5 180 fields (41 per direction, 47 with v5's
  // bw samples and iops block; trim only in v2, v4, v5; v2 has no fio version field).
  const RunResult run = test::make_run({test::make_job("a", 1000, 500)});
  EXPECT_EQ(terse_fields(run, 2).size(), 161u);
  EXPECT_EQ(terse_fields(run, 3).size(), 121u);
  EXPECT_EQ(terse_fields(run, 4).size(), 162u);
  EXPECT_EQ(terse_fields(run, 5).size(), 180u);
}

TEST(TerseReport, V3FieldsInFiosOrder) {
  const RunResult run = test::make_run({test::make_job("a", 1000, 500)});
  const std::vector<std::string> f = terse_fields(run, 3);
  ASSERT_EQ(f.size(), 121u);
  EXPECT_EQ(f[0], "3");
  EXPECT_EQ(f[1].rfind("sluice-", 0), 0u);
  EXPECT_EQ(f[2], "a");
  EXPECT_EQ(f[3], "0");     // groupid
  EXPECT_EQ(f[4], "0");     // error
  EXPECT_EQ(f[5], "4000");  // read_kb: 1000 x 4 KiB
  EXPECT_EQ(f[6], "2000");  // read_bandwidth_kb: 4000 KiB over 2 s
  EXPECT_EQ(f[7], "500");   // read_iops
  EXPECT_EQ(f[8], "2000");  // read_runtime_ms
  EXPECT_EQ(f[9], "1");     // slat min: 1500 ns -> 1 us
  EXPECT_EQ(f[13], "50");   // clat min: 50 us
  EXPECT_EQ(f[14], "149");  // clat max: 149 us
  // lat_percentiles=1 (make_job): the list comes from lat; 1.000000%= ... then "0%=0" up to 20.
  EXPECT_EQ(f[17].rfind("1.000000%=", 0), 0u) << f[17];
  EXPECT_EQ(f[33].rfind("99.990000%=", 0), 0u) << f[33];
  EXPECT_EQ(f[34], "0%=0");
  EXPECT_EQ(f[36], "0%=0");
  EXPECT_EQ(f[37], "52");        // lat min: clat + 2 us
  EXPECT_EQ(f[46], "2000");      // write_kb: 500 x 4 KiB
  EXPECT_EQ(f[87].back(), '%');  // cpu usr
  EXPECT_EQ(f[89], "1234");      // ctx
  EXPECT_EQ(f[94], "100.0%");    // iodepth 4 (make_job puts every io at depth 4-7)
}

TEST(TerseReport, NanosecondBucketsFoldIntoTheFirstMicrosecondBucket) {
  JobResult job = test::make_job("a", 0, 0);
  DirectionStats& read = job.dirs[0];
  for (int i = 0; i < 100; ++i) read.clat.record(300);  // 300 ns: fio's ns range "500"
  read.ios = 100;
  read.bytes = 409600;
  job.depth.level[0] = 100;
  const std::vector<std::string> f = terse_fields(test::make_run({job}), 3);
  ASSERT_EQ(f.size(), 121u);
  EXPECT_EQ(f[99], "100.00%");  // lat_2us holds the sub-microsecond ios, as fio's stat_calc_lat_nu
  EXPECT_EQ(f[100], "0.00%");
}

TEST(TerseReport, DiskUtilizationFromVersion3) {
  const RunResult run = test::make_run({test::make_job("a", 100, 0)});
  const std::vector<std::string> v3 = terse_fields(run, 3, true);
  ASSERT_EQ(v3.size(), 130u);  // + disk_name;read_ios;write_ios;read_merges;write_merges;ticks x2;in_queue;util
  EXPECT_EQ(v3[121], run.disks.front().name);
  EXPECT_EQ(v3[122], "100");
  EXPECT_EQ(v3[129].back(), '%');
  EXPECT_EQ(terse_fields(run, 2, true).size(), 161u);  // fio's v2 has no disk fields
}

TEST(TerseReport, DescriptionAndErrorsAreAppended) {
  JobResult job = test::make_job("a", 100, 0);
  job.description = "hello there";
  job.options["continue_on_error"] = "all";
  job.dirs[0].errors = 3;
  const std::vector<std::string> f = terse_fields(test::make_run({job}), 3);
  ASSERT_EQ(f.size(), 124u);
  EXPECT_EQ(f[121], "3");
  EXPECT_EQ(f[123], "hello there");
}

TEST(TerseReport, UnifiedReportingAsFio) {
  // fio 3.33 on the same job: unified_rw_reporting=mixed 80 fields (one direction), both 162 (read, write, mixed).
  JobResult job = test::make_job("a", 100, 50);
  job.settings.unified_rw_reporting = true;
  job.options["unified_rw_reporting"] = "mixed";
  const std::vector<std::string> mixed = terse_fields(test::make_run({job}), 3);
  ASSERT_EQ(mixed.size(), 80u);
  EXPECT_EQ(mixed[5], "600");  // read_kb holds read + write: 150 x 4 KiB
  job.options["unified_rw_reporting"] = "both";
  EXPECT_EQ(terse_fields(test::make_run({job}), 3).size(), 162u);
}

TEST(TerseReport, OneLinePerJob) {
  const RunResult run = test::make_run({test::make_job("a", 10, 0), test::make_job("b", 10, 0)});
  const std::vector<std::string> lines = lines_of(render_terse(run, 3));
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(fields_of(lines[0])[2], "a");
  EXPECT_EQ(fields_of(lines[1])[2], "b");
}

}  // namespace
}  // namespace sluice
