// fio-format per-io logs: file names, line format, per-io values and averaged windows with true rates.
#include "report/logs/job_logs.h"

#include <gtest/gtest.h>
#include <time.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "run/run_test_support.h"
#include "run/runner.h"
#include "support/temp_dir.h"

namespace sluice {
namespace {

constexpr std::uint64_t kMs = 1'000'000;

struct Line {
  std::uint64_t time_ms, value;
  int ddir;
  std::uint64_t bs;
  std::vector<std::uint64_t> rest;  // [offset,] priority
};

// Parses "t, v, ddir, bs, prio" lines back; fails the test on a malformed line.
std::vector<Line> read_log_lines(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  std::vector<Line> lines;
  std::string text;
  while (std::getline(in, text)) {
    std::vector<std::uint64_t> fields;
    std::stringstream s(text);
    std::string field;
    while (std::getline(s, field, ',')) fields.push_back(std::stoull(field));
    EXPECT_GE(fields.size(), 5u) << text;
    if (fields.size() < 5) continue;
    lines.push_back({fields[0], fields[1], static_cast<int>(fields[2]), fields[3], {fields.begin() + 4, fields.end()}});
  }
  return lines;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

JobSpec logged_job(const std::string& prefix) {
  JobSpec job;
  job.name = "j";
  job.engine.ioengine = EngineKind::kNull;
  job.workload.rw = RwMode::kRandRead;
  job.logs.write_lat_log = prefix;
  job.logs.write_bw_log = prefix;
  job.logs.write_iops_log = prefix;
  return job;
}

TEST(JobLogs, NoLogAskedForGivesNull) {
  JobSpec job;
  EXPECT_EQ(JobLogs::create(job, 0), nullptr);
}

TEST(JobLogs, FileNamesFollowFioWithCloneNumberFromOne) {
  testing::TempDir dir;
  auto logs = JobLogs::create(logged_job(dir.file("p")), 2);
  logs->finish(0);
  for (const char* kind : {"lat", "clat", "slat", "bw", "iops"}) {
    EXPECT_TRUE(std::filesystem::exists(dir.file(std::string("p_") + kind + ".3.log"))) << kind;
  }
}

TEST(JobLogs, OnlyTheRequestedLogsAreCreated) {
  testing::TempDir dir;
  JobSpec job;
  job.logs.write_bw_log = dir.file("b");
  JobLogs::create(job, 0)->finish(0);
  EXPECT_TRUE(std::filesystem::exists(dir.file("b_bw.1.log")));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), std::filesystem::directory_iterator()), 1);
}

TEST(JobLogs, UncreatableLogFileIsAUserError) {
  JobSpec job;
  job.logs.write_bw_log = "/nonexistent-sluice-dir/x";
  EXPECT_THROW(JobLogs::create(job, 0), UserError);
}

TEST(JobLogs, PerIoLineHasFioColumns) {
  testing::TempDir dir;
  auto logs = JobLogs::create(logged_job(dir.file("p")), 0);
  logs->record(Direction::kWrite, 2'500'000, 3000, 2000, 0, 4096, 8192, 0);
  logs->finish(3 * kMs);
  EXPECT_EQ(read_text(dir.file("p_lat.1.log")), "2, 3000, 1, 4096, 0\n");
  EXPECT_EQ(read_text(dir.file("p_clat.1.log")), "2, 2000, 1, 4096, 0\n");
  EXPECT_EQ(read_text(dir.file("p_iops.1.log")), "2, 1, 1, 4096, 0\n");
}

TEST(JobLogs, PerIoBandwidthIsBytesOverClatAsFio) {
  testing::TempDir dir;
  auto logs = JobLogs::create(logged_job(dir.file("p")), 0);
  logs->record(Direction::kRead, 0, 12303, 11762, 0, 4096, 0, 0);
  logs->finish(kMs);
  EXPECT_EQ(read_log_lines(dir.file("p_bw.1.log")).at(0).value, 348240u);  // what fio 3.33 writes for this io
}

TEST(JobLogs, SyncEngineLeavesSlatLogEmpty) {
  testing::TempDir dir;
  auto logs = JobLogs::create(logged_job(dir.file("p")), 0);
  logs->record(Direction::kRead, 0, 100, 100, 0, 4096, 0, 0);
  logs->finish(kMs);
  EXPECT_EQ(read_text(dir.file("p_slat.1.log")), "");
}

TEST(JobLogs, AsyncEngineLogsSlat) {
  testing::TempDir dir;
  JobSpec job = logged_job(dir.file("p"));
  job.engine.ioengine = EngineKind::kIoUring;
  auto logs = JobLogs::create(job, 0);
  logs->record(Direction::kRead, 0, 100, 70, 30, 4096, 0, 0);
  logs->finish(kMs);
  EXPECT_EQ(read_text(dir.file("p_slat.1.log")), "0, 30, 0, 4096, 0\n");
}

TEST(JobLogs, LogOffsetAddsTheOffsetColumn) {
  testing::TempDir dir;
  JobSpec job = logged_job(dir.file("p"));
  job.logs.log_offset = true;
  auto logs = JobLogs::create(job, 0);
  logs->record(Direction::kRead, 0, 100, 100, 0, 4096, 45056, 0);
  logs->finish(kMs);
  EXPECT_EQ(read_text(dir.file("p_lat.1.log")), "0, 100, 0, 4096, 45056, 0\n");
}

// fio 3.33: without log_prio the column is 1 for a realtime-class io (0x2000 = class 1, level 0), 0 otherwise;
// with log_prio it is the priority value as "0x%04x".
TEST(JobLogs, PriorityColumnIsRealtimeFlagOrHexValue) {
  testing::TempDir dir;
  auto plain = JobLogs::create(logged_job(dir.file("p")), 0);
  plain->record(Direction::kRead, 0, 100, 100, 0, 4096, 0, 0x2000);
  plain->record(Direction::kRead, 0, 100, 100, 0, 4096, 0, 0x4003);
  plain->finish(kMs);
  EXPECT_EQ(read_text(dir.file("p_lat.1.log")), "0, 100, 0, 4096, 1\n0, 100, 0, 4096, 0\n");
  JobSpec job = logged_job(dir.file("q"));
  job.logs.log_prio = true;
  job.logs.log_offset = true;
  auto hex = JobLogs::create(job, 0);
  hex->record(Direction::kWrite, 0, 100, 100, 0, 4096, 8192, 0x2000);
  hex->record(Direction::kWrite, 0, 100, 100, 0, 4096, 0, 0);
  hex->finish(kMs);
  EXPECT_EQ(read_text(dir.file("q_clat.1.log")), "0, 100, 1, 4096, 8192, 0x2000\n0, 100, 1, 4096, 0, 0x0000\n");
}

// 1000 ios spread evenly over each 100 ms window, for `windows` windows.
void feed_even_stream(JobLogs& logs, int windows, std::uint64_t lat_ns) {
  const std::uint64_t step = 100 * kMs / 1000;
  for (std::uint64_t i = 0; i < static_cast<std::uint64_t>(windows) * 1000; ++i) {
    logs.record(Direction::kRead, i * step, lat_ns, lat_ns, 0, 4096, 0, 0);
  }
}

TEST(JobLogs, AveragedIopsIsTheTrueRate) {
  testing::TempDir dir;
  JobSpec job = logged_job(dir.file("p"));
  job.logs.log_avg_msec = 100;
  auto logs = JobLogs::create(job, 0);
  feed_even_stream(*logs, 5, 1000);
  logs->finish(500 * kMs);
  const auto lines = read_log_lines(dir.file("p_iops.1.log"));
  ASSERT_EQ(lines.size(), 5u);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    EXPECT_EQ(lines[i].time_ms, (i + 1) * 100);
    EXPECT_EQ(lines[i].value, 10000u);
    EXPECT_EQ(lines[i].bs, 0u);
  }
}

TEST(JobLogs, AveragedBandwidthIsKibPerSecond) {
  testing::TempDir dir;
  JobSpec job = logged_job(dir.file("p"));
  job.logs.log_avg_msec = 100;
  auto logs = JobLogs::create(job, 0);
  feed_even_stream(*logs, 2, 1000);
  logs->finish(200 * kMs);
  for (const Line& line : read_log_lines(dir.file("p_bw.1.log"))) EXPECT_EQ(line.value, 40000u);  // 10000 x 4 KiB
}

TEST(JobLogs, AveragedLatencyIsTheWindowMean) {
  testing::TempDir dir;
  JobSpec job = logged_job(dir.file("p"));
  job.logs.log_avg_msec = 10;
  auto logs = JobLogs::create(job, 0);
  logs->record(Direction::kRead, 1 * kMs, 100, 80, 0, 4096, 0, 0);
  logs->record(Direction::kRead, 2 * kMs, 300, 120, 0, 4096, 0, 0);
  logs->record(Direction::kWrite, 3 * kMs, 1000, 900, 0, 4096, 0, 0);
  logs->finish(10 * kMs);
  EXPECT_EQ(read_text(dir.file("p_lat.1.log")), "10, 200, 0, 0, 0\n10, 1000, 1, 0, 0\n");
  EXPECT_EQ(read_text(dir.file("p_clat.1.log")), "10, 100, 0, 0, 0\n10, 900, 1, 0, 0\n");
}

TEST(JobLogs, LogMaxValueLogsTheWindowsLargestLatency) {
  testing::TempDir dir;
  JobSpec job = logged_job(dir.file("p"));
  job.logs.log_avg_msec = 10;
  job.logs.log_max_value = true;
  auto logs = JobLogs::create(job, 0);
  logs->record(Direction::kRead, 1 * kMs, 100, 80, 0, 4096, 0, 0);
  logs->record(Direction::kRead, 2 * kMs, 300, 120, 0, 4096, 0, 0);
  logs->record(Direction::kRead, 12 * kMs, 50, 40, 0, 4096, 0, 0);
  logs->finish(20 * kMs);
  EXPECT_EQ(read_text(dir.file("p_lat.1.log")), "10, 300, 0, 0, 0\n20, 50, 0, 0, 0\n");
  EXPECT_EQ(read_text(dir.file("p_clat.1.log")), "10, 120, 0, 0, 0\n20, 40, 0, 0, 0\n");
  EXPECT_EQ(read_text(dir.file("p_iops.1.log")), "10, 200, 0, 0, 0\n20, 100, 0, 0, 0\n");  // rates stay rates
}

TEST(JobLogs, LogUnixEpochCountsFromTheUnixEpoch) {
  testing::TempDir dir;
  JobSpec job = logged_job(dir.file("p"));
  job.logs.log_unix_epoch = true;
  timespec before{};
  clock_gettime(CLOCK_REALTIME, &before);
  auto logs = JobLogs::create(job, 0);
  logs->record(Direction::kRead, 5 * kMs, 100, 80, 0, 4096, 0, 0);
  logs->record(Direction::kRead, 9 * kMs, 100, 80, 0, 4096, 0, 0);
  logs->finish(10 * kMs);
  timespec after{};
  clock_gettime(CLOCK_REALTIME, &after);
  const auto lines = read_log_lines(dir.file("p_lat.1.log"));
  ASSERT_EQ(lines.size(), 2u);
  const auto ms = [](const timespec& t) { return static_cast<std::uint64_t>(t.tv_sec) * 1000 + t.tv_nsec / 1'000'000; };
  // The first line is read at "5 ms after the start": its time is the Unix time then.
  EXPECT_GE(lines[0].time_ms, ms(before));
  EXPECT_LE(lines[0].time_ms, ms(after));
  EXPECT_EQ(lines[1].time_ms - lines[0].time_ms, 4u);
}

TEST(JobLogs, IdleWindowLogsZeroRateForIssuedDirection) {
  testing::TempDir dir;
  JobSpec job = logged_job(dir.file("p"));
  job.logs.log_avg_msec = 10;
  auto logs = JobLogs::create(job, 0);
  logs->record(Direction::kRead, 1 * kMs, 100, 100, 0, 4096, 0, 0);
  logs->record(Direction::kRead, 25 * kMs, 100, 100, 0, 4096, 0, 0);
  logs->finish(30 * kMs);
  EXPECT_EQ(read_text(dir.file("p_iops.1.log")), "10, 100, 0, 0, 0\n20, 0, 0, 0, 0\n30, 100, 0, 0, 0\n");
  EXPECT_EQ(read_log_lines(dir.file("p_lat.1.log")).size(), 2u);  // no mean for an empty window
}

TEST(JobLogs, PartialLastWindowIsRatedOverItsLength) {
  testing::TempDir dir;
  JobSpec job = logged_job(dir.file("p"));
  job.logs.log_avg_msec = 100;
  auto logs = JobLogs::create(job, 0);
  for (int i = 0; i < 50; ++i) logs->record(Direction::kRead, 100 * kMs + i * kMs, 100, 100, 0, 4096, 0, 0);
  logs->finish(150 * kMs);
  const auto lines = read_log_lines(dir.file("p_iops.1.log"));
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1].time_ms, 150u);
  EXPECT_EQ(lines[1].value, 1000u);  // 50 ios in 50 ms
}

TEST(JobLogs, LargeLogIsFlushedCompletely) {
  testing::TempDir dir;
  JobSpec job;
  job.logs.write_iops_log = dir.file("p");
  auto logs = JobLogs::create(job, 0);
  constexpr int kIos = 140'000;  // ~2.2 MiB of lines: two flushes of the 1 MiB buffer and the last one
  for (int i = 0; i < kIos; ++i)
    logs->record(Direction::kRead, static_cast<std::uint64_t>(i) * 1000, 1, 1, 0, 4096, 0, 0);
  logs->finish(kIos * 1000ull);
  EXPECT_EQ(read_log_lines(dir.file("p_iops.1.log")).size(), static_cast<std::size_t>(kIos));
}

using testing::quiet;

TEST(JobLogs, RunnerWritesOneLinePerIo) {
  testing::TempDir dir;
  JobSpec job = logged_job(dir.file("run"));
  job.workload.rw = RwMode::kRandRW;
  job.target.size.bytes = 1 << 20;
  run_jobs({job}, quiet());
  EXPECT_EQ(read_log_lines(dir.file("run_lat.1.log")).size(), 256u);
  EXPECT_EQ(read_log_lines(dir.file("run_iops.1.log")).size(), 256u);
}

TEST(JobLogs, RunnerWritesAveragedWindowsForEachClone) {
  testing::TempDir dir;
  JobSpec job = logged_job(dir.file("run"));
  job.target.size.bytes =
      64ull << 20;  // time-based: it repeats; a 1 TiB region's random map (32 MiB a clone) cost more than the run
  job.time.time_based = true;
  job.time.runtime = std::chrono::milliseconds(60);  // three windows: 20 ms ones discriminate as 100 ms ones did
  job.logs.log_avg_msec = 20;
  job.control.numjobs = 2;
  run_jobs({job}, quiet());
  for (const char* name : {"run_iops.1.log", "run_iops.2.log"}) {
    const auto lines = read_log_lines(dir.file(name));
    ASSERT_GE(lines.size(), 3u) << name;
    EXPECT_EQ(lines[0].time_ms, 20u);
    EXPECT_GT(lines[0].value, 1000u) << "a rate, not a count of 1";
  }
}

}  // namespace
}  // namespace sluice
