// Shape of the normal output: fio's layout, units always named.
// GCC 12 reports a false -Wmaybe-uninitialized inside <regex> when built with the sanitizers (clang, which
// builds the sanitizer and fuzz tests in CI, has no such warning group).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "report/reporters.h"
#include "report_test_support.h"

namespace sluice {
namespace {

bool has_line(const std::string& text, const std::string& pattern) {
  return std::regex_search(text, std::regex(pattern, std::regex::multiline));
}

std::string normal_of_one_job() { return render_normal(test::make_run({test::make_job("a", 1000, 500)})); }

TEST(TextReport, JobHeaderNamesGroupAndJobs) {
  EXPECT_TRUE(has_line(normal_of_one_job(), R"(^a: \(groupid=0, jobs=1\): err= 0$)"));
}

TEST(TextReport, DirectionLineNamesUnits) {
  const std::string text = normal_of_one_job();
  EXPECT_TRUE(has_line(text, R"(^  read: IOPS=500, BW=2000KiB/s \(2048kB/s\)\(4000KiB/2000msec\)$)")) << text;
  EXPECT_TRUE(has_line(text, R"(^  write: IOPS=250, BW=1000KiB/s \(1024kB/s\)\(2000KiB/2000msec\)$)")) << text;
}

TEST(TextReport, LargeRatesScaleToMiBAndThousands) {
  const std::string text = render_normal(test::make_run({test::make_job("a", 100'000, 0)}));
  EXPECT_TRUE(has_line(text, R"(^  read: IOPS=50\.0k, BW=195MiB/s \(205MB/s\)\(391MiB/2000msec\)$)")) << text;
}

TEST(TextReport, SignificantFiguresAndUnitBaseShapeTheRates) {
  JobResult job = test::make_job("a", 100'000, 0);
  job.settings.significant_figures = 6;
  job.settings.bandwidth_in_bits = true;
  const std::string text = render_normal(test::make_run({job}));
  EXPECT_TRUE(has_line(text, R"(^  read: IOPS=50000, BW=1562\.5Mibit/s \(1638\.4Mbit/s\)\(400000KiB/2000msec\)$)"))
      << text;
  EXPECT_TRUE(has_line(text, R"(^   READ: bw=1562\.5Mibit/s \(1638\.4Mbit/s\), 1562\.5Mibit/s-1562\.5Mibit/s )"
                             R"(\(1638\.4Mbit/s-1638\.4Mbit/s\), io=400000KiB \(409600kB\), run=)"))
      << text;
}

TEST(TextReport, LatencyLinesPickAUnit) {
  const std::string text = normal_of_one_job();
  EXPECT_TRUE(has_line(text, R"(^    slat \(nsec\): min=1500, max=1509, avg=\d+\.\d\d, stdev=\s*\d+\.\d\d$)")) << text;
  EXPECT_TRUE(has_line(text, R"(^    clat \(usec\): min=50, max=149, avg=99\.\d\d, stdev=\s*\d+\.\d\d$)")) << text;
  EXPECT_TRUE(has_line(text, R"(^     lat \(usec\): min=52, max=151, )")) << text;
}

TEST(TextReport, PercentileTablesInFiosLayout) {
  const std::string text = normal_of_one_job();
  EXPECT_TRUE(has_line(text, R"(^    clat percentiles \(usec\):$)")) << text;
  EXPECT_TRUE(has_line(text, R"(^    lat percentiles \(usec\):$)")) << text;
  EXPECT_TRUE(has_line(text, R"(^    slat percentiles \(nsec\):$)")) << text;
  EXPECT_TRUE(has_line(
      text, R"(^     \|  1\.00th=\[\s*\d+\],  5\.00th=\[\s*\d+\], 10\.00th=\[\s*\d+\], 20\.00th=\[\s*\d+\],$)"))
      << text;
  EXPECT_TRUE(has_line(text, R"(^     \| 99\.99th=\[\s*\d+\]$)")) << text;
}

TEST(TextReport, PercentileLabelsKeepTheListsPrecision) {
  JobResult job = test::make_job("a", 1000, 0);
  job.settings.percentile_list = {50, 99.999};
  const std::string text = render_normal(test::make_run({job}));
  EXPECT_TRUE(has_line(text, R"(^     \| 50\.000th=\[\s*\d+\], 99\.999th=\[\s*\d+\]$)")) << text;
}

TEST(TextReport, SampleLinesNameUnits) {
  const std::string text = normal_of_one_job();
  EXPECT_TRUE(has_line(
      text, R"(^   bw \(  KiB/s\): min= 1800, max= 2200, per=100\.00%, avg=2000\.00, stdev=\d+\.\d\d, samples=2$)"))
      << text;
  EXPECT_TRUE(has_line(text, R"(^   iops        : min=  450, max=  550, avg=500\.00, stdev=\d+\.\d\d, samples=2$)"))
      << text;
}

TEST(TextReport, BucketsCpuAndDepths) {
  const std::string text = normal_of_one_job();
  // clat 50..149 us: about half below 100 us, half above (histogram resolution moves ~1% across edges).
  EXPECT_TRUE(has_line(text, R"(^  lat \(usec\)   : (50=\d\.\d\d%, )?100=(49|50|51)\.\d\d%, 250=(49|50|51)\.\d\d%$)"))
      << text;
  EXPECT_TRUE(has_line(text, R"(^  cpu          : usr=5\.00%, sys=25\.00%, ctx=1234, majf=0, minf=12$)")) << text;
  EXPECT_TRUE(
      has_line(text, R"(^  IO depths    : 1=0\.0%, 2=0\.0%, 4=100\.0%, 8=0\.0%, 16=0\.0%, 32=0\.0%, >=64=0\.0%$)"));
  EXPECT_TRUE(has_line(text, R"(^     submit    : 0=0\.0%, 4=100\.0%, )"));
  EXPECT_TRUE(has_line(text, R"(^     issued rwts: total=1000,500,0,0 short=0,0,0,0 dropped=0,0,0,0$)")) << text;
}

TEST(TextReport, RunStatusAndDiskStats) {
  const std::string text = normal_of_one_job();
  EXPECT_TRUE(has_line(text, R"(^Run status group 0 \(all jobs\):$)"));
  EXPECT_TRUE(has_line(
      text,
      R"(^   READ: bw=2000KiB/s \(2048kB/s\), 2000KiB/s-2000KiB/s \(2048kB/s-2048kB/s\), io=4000KiB \(4096kB\), run=2000-2000msec$)"))
      << text;
  EXPECT_TRUE(has_line(text, R"(^  WRITE: bw=)"));
  EXPECT_FALSE(has_line(text, R"(^   TRIM: )"));
  EXPECT_TRUE(has_line(text, R"(^Disk stats \(read/write\):$)"));
  EXPECT_TRUE(has_line(text, R"(^  vda: ios=100/50, merge=0/0, ticks=0/0, in_queue=0, util=42\.50%$)")) << text;
}

TEST(TextReport, ClockLineAlwaysPresent) {
  EXPECT_TRUE(has_line(normal_of_one_job(), R"(^sluice: clock=clock_gettime\(CLOCK_MONOTONIC\)$)"));
}

TEST(TextReport, GroupReportingShowsOneEntryWithJobCount) {
  const std::string text =
      render_normal(test::make_run({test::make_job("a", 100, 0), test::make_job("a", 100, 0)}, true));
  EXPECT_TRUE(has_line(text, R"(^a: \(groupid=0, jobs=2\): err= 0$)")) << text;
  EXPECT_EQ(text.find("jobs=1"), std::string::npos);
}

TEST(TextReport, SyncBlockWhenSyncsWereIssued) {
  RunResult run = test::make_run({test::make_job("a", 0, 100)});
  JobResult& job = run.groups.front().jobs.front();
  for (int i = 0; i < 10; ++i) job.sync.lat.record(400'000 + static_cast<std::uint64_t>(i) * 10'000);
  job.sync.ios = 10;
  const std::string text = render_normal(run);
  EXPECT_TRUE(has_line(text, R"(^  fsync/fdatasync/sync_file_range:$)"));
  EXPECT_TRUE(has_line(text, R"(^    sync \(usec\): min=400, max=490, )")) << text;
  EXPECT_TRUE(has_line(text, R"(^    sync percentiles \(usec\):$)"));
}

TEST(TextReport, WarningsOnlyWhenAsked) {
  RunResult run = test::make_run({test::make_job("a", 10, 0)});
  Problem w;
  w.option = "iodepth";
  w.message = "ignored by psync";
  w.where = {"job.fio", 3};
  run.warnings.push_back(w);
  EXPECT_FALSE(has_line(render_normal(run), R"(^Warnings:$)"));
  const std::string text = render_normal(run, NormalReportOptions{.show_warnings = true});
  EXPECT_TRUE(has_line(text, R"(^Warnings:$)"));
  EXPECT_TRUE(has_line(text, R"(^  job\.fio:3: iodepth: ignored by psync$)")) << text;
}

TEST(TextReport, EnvironmentSummaryWhenCaptured) {
  RunResult run = test::make_run({test::make_job("a", 10, 0)});
  EXPECT_FALSE(has_line(render_normal(run), R"(^sluice: environment: )"));
  run.environment = {{"host", "h"}, {"kernel_release", "6.1"}};
  EXPECT_TRUE(has_line(render_normal(run), R"(^sluice: environment: host h, Linux 6\.1)"));
}

TEST(TextReport, EmptyResultStillRenders) {
  const std::string text = render_normal(RunResult{});
  EXPECT_TRUE(has_line(text, R"(^sluice: clock=)"));
}

TEST(TextReport, ZeroRuntimeJobPrintsNoRates) {
  const std::string text = render_normal(test::make_run({test::make_job("a", 10, 0, 0)}));
  EXPECT_FALSE(has_line(text, R"(^  read: IOPS)")) << text;
  EXPECT_FALSE(has_line(text, R"(\b(nan|inf)\b)")) << text;
}

TEST(TextReport, BannerAsFioPrintsIt) {
  JobResult job = test::make_job("a", 1, 0);
  job.settings.bs_min[1] = job.settings.bs_max[1] = 131072;
  EXPECT_EQ(render_job_banner(job),
            "a: (g=0): rw=randrw, bs=(R) 4096B-4096B, (W) 128KiB-128KiB, (T) 4096B-4096B, ioengine=libaio, iodepth=4");
}

}  // namespace
}  // namespace sluice
