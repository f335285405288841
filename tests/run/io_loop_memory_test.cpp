// Memory stays bounded whatever the duration (issue 15): 64 jobs run for a simulated day on the fake clock
// (no waiting), and the process keeps every job's result, as the runner does until the report. What grows
// with time — the per-interval series — must stay capped (TimeSeries::kMaxSamples, coarser intervals), so
// the process's peak RSS stays under 64 MiB. Then the JSON report of those 64 jobs is rendered: its text
// holds every sample, so it is as large as the series are long; building it may cost little beyond it; and
// printed as `sluice run` prints it (write_json_text), which must cost almost nothing beyond the results.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "engine/engine.h"
#include "job/job_spec.h"
#include "report/reporters.h"
#include "run/io_loop.h"
#include "run/plan.h"
#include "support/fake_engine.h"
#include "support/sanitizers.h"

namespace sluice {
namespace {

using testing::FakeClock;
using testing::FakeEngine;

constexpr std::uint64_t kSecond = 1'000'000'000ull;
constexpr std::uint64_t kDay = 86'400 * kSecond;

// Peak resident set of this process in KiB (VmHWM), 0 when /proc does not say.
[[maybe_unused]] std::uint64_t peak_rss_kib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6));
  }
  return 0;
}

// The current resident set in KiB (VmRSS), 0 when /proc does not say.
[[maybe_unused]] std::uint64_t rss_kib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stoull(line.substr(6));
  }
  return 0;
}

// Resets VmHWM to the current RSS (proc(5), clear_refs "5"); false when the kernel does not allow it.
[[maybe_unused]] bool reset_peak_rss() {
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
  clear.flush();
  return clear.good();
}

[[maybe_unused]] JobResult run_one_simulated_day(int jobnum) {
  JobSpec job;
  job.name = "day";
  job.workload.rw = RwMode::kRandRead;
  job.target.size.bytes = 1ull << 30;
  job.time.time_based = true;
  job.time.runtime = std::chrono::nanoseconds(kDay);
  const JobInstance instance{.spec = job,
                             .jobnum = jobnum,
                             .groupid = 0,
                             .lognum = jobnum + 1,
                             .seed = static_cast<std::uint64_t>(jobnum + 1)};
  std::vector<TargetFile> targets(1);
  targets[0].path = "(fake)";
  targets[0].size = job.target.size.bytes;
  targets[0].region_length = job.target.size.bytes;
  FakeClock clock(kSecond);
  // One io per ten simulated seconds: 8,640 ios per job; the series still gets 86,400 one-second intervals.
  IoLoop loop(io_loop_inputs(instance, targets), targets, kSecond,
              std::make_unique<FakeEngine>(clock, false, 10 * kSecond), LoopClock(clock));
  loop.prepare();
  JobResult result;
  LiveCounters live;
  loop.run(result, live);
  return result;
}

TEST(IoLoopMemory, SixtyFourJobsForASimulatedDayStayUnder64MiB) {
#if SLUICE_TEST_ASAN || SLUICE_TEST_TSAN
  GTEST_SKIP() << "RSS means nothing under AddressSanitizer or ThreadSanitizer (shadow memory, quarantine)";
#else
  constexpr int kJobs = 64;
  std::vector<JobResult> results;
  results.reserve(kJobs);
  for (int i = 0; i < kJobs; ++i) results.push_back(run_one_simulated_day(i));

  for (const JobResult& r : results) {
    EXPECT_EQ(r.runtime_ns, kDay);
    EXPECT_EQ(r.total_ios(), 8'640u);
    EXPECT_LE(r.series.size(), TimeSeries::kMaxSamples);
    // 86,400 one-second samples halve to 32 s intervals: the first resolution that fits 4,096 samples.
    EXPECT_EQ(r.series.interval_ns(), 32 * kSecond);
  }
  const std::uint64_t peak = peak_rss_kib();
  ASSERT_GT(peak, 0u) << "/proc/self/status has no VmHWM";
  EXPECT_LT(peak, 64u * 1024u) << "peak RSS " << peak << " KiB for " << kJobs << " jobs of a simulated day";
  RecordProperty("peak_rss_kib", std::to_string(peak));

  // The report: its text is what it is (every sample of every job), but building it must not multiply it
  // (a JSON node per number cost ~8 times the text's size in the one-hour run of bench/README.md).
  RunResult run;
  run.groups.push_back(GroupResult{});
  run.groups[0].jobs = std::move(results);
  if (!reset_peak_rss()) GTEST_SKIP() << "cannot reset VmHWM (/proc/self/clear_refs)";
  const std::uint64_t before = rss_kib();
  const std::string text = render_json_text(run, false);
  const std::uint64_t growth = peak_rss_kib() - before;
  const std::uint64_t text_kib = text.size() / 1024;
  EXPECT_LT(growth, 2 * text_kib + 8 * 1024)
      << "building " << text_kib << " KiB of JSON took " << growth << " KiB more at its peak";
  RecordProperty("report_kib", std::to_string(text_kib));
  RecordProperty("report_peak_growth_kib", std::to_string(growth));
  // Printed as it is produced (what `sluice run` does), the report costs about the series it holds, not
  // the text: the same bytes reach the file without ever being one string.
  const std::string path = ::testing::TempDir() + "io_loop_memory_report.json";
  if (!reset_peak_rss()) GTEST_SKIP() << "cannot reset VmHWM (/proc/self/clear_refs)";
  const std::uint64_t before_writing = rss_kib();
  {
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    write_json_text(run, false, file);
  }
  const std::uint64_t writing_growth = peak_rss_kib() - before_writing;
  EXPECT_LT(writing_growth, 8u * 1024u) << "writing " << text_kib << " KiB of JSON took " << writing_growth
                                        << " KiB more at its peak";
  RecordProperty("report_written_peak_growth_kib", std::to_string(writing_growth));
  {
    std::ifstream file(path, std::ios::binary);
    const std::string written((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    EXPECT_TRUE(written == text) << "the streamed report differs from the rendered one";
  }
  std::remove(path.c_str());

  // The normal text (which `sluice run` renders too) borrows the series as well: it holds none of them.
  if (!reset_peak_rss()) GTEST_SKIP() << "cannot reset VmHWM (/proc/self/clear_refs)";
  const std::uint64_t before_normal = rss_kib();
  const std::string normal = render_normal(run, NormalReportOptions{});
  const std::uint64_t normal_growth = peak_rss_kib() - before_normal;
  EXPECT_LT(normal_growth, 8u * 1024u) << "the normal text of a day's 64 jobs took " << normal_growth << " KiB";
  RecordProperty("normal_text_peak_growth_kib", std::to_string(normal_growth));
  EXPECT_NE(normal.find(": (groupid=0, jobs=1): err= 0"), std::string::npos) << normal.substr(0, 600);

  const nlohmann::json doc = nlohmann::json::parse(text);  // still one valid document, every sample in it
  ASSERT_EQ(doc["sluice"]["jobs"].size(), 64u);
  EXPECT_EQ(doc["sluice"]["jobs"][63]["series"]["samples"].size(), run.groups[0].jobs[63].series.size());
  EXPECT_EQ(doc["sluice"]["jobs"][0]["series"]["interval_ns"], 32 * kSecond);
#endif
}

}  // namespace
}  // namespace sluice
