// The histogram log in fio 3.33's layout, and per_job_logs=0 sharing one file among clones.
#include "report/logs/hist_log.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <numeric>
#include <sstream>

#include "run/run_test_support.h"
#include "run/runner.h"
#include "support/temp_dir.h"

namespace sluice {
namespace {

using testing::quiet;

std::vector<std::vector<std::uint64_t>> read_log(const std::string& path) {
  std::vector<std::vector<std::uint64_t>> rows;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::uint64_t> row;
    std::stringstream s(line);
    for (std::string field; std::getline(s, field, ',');) row.push_back(std::stoull(field));
    rows.push_back(std::move(row));
  }
  return rows;
}

JobSpec hist_job(const testing::TempDir& dir) {
  JobSpec job;
  job.name = "h";
  job.engine.ioengine = EngineKind::kNull;
  job.workload.rw = RwMode::kRandRW;
  job.target.size.bytes = 1 << 20;
  job.logs.write_hist_log = dir.file("h");
  return job;
}

TEST(HistLog, NamesFollowFio) {
  EXPECT_EQ(fio_log_path("p", "clat_hist", 0, true), "p_clat_hist.1.log");
  EXPECT_EQ(fio_log_path("p", "bw", 3, false), "p_bw.log");
}

TEST(HistLog, WholeRunLineHasFiosColumnsAndEveryIo) {
  testing::TempDir dir;
  const RunResult r = run_jobs({hist_job(dir)}, quiet());
  const auto rows = read_log(dir.file("h_clat_hist.1.log"));
  ASSERT_EQ(rows.size(), 2u);  // read and write: the directions the job issues
  for (std::size_t d = 0; d < 2; ++d) {
    ASSERT_EQ(rows[d].size(), 3u + HistLog::kFioBins);
    EXPECT_EQ(rows[d][1], d);
    EXPECT_EQ(rows[d][2], 4096u);
    const std::uint64_t total = std::accumulate(rows[d].begin() + 3, rows[d].end(), std::uint64_t{0});
    EXPECT_EQ(total, r.groups[0].jobs[0].dirs[d].ios);
  }
}

TEST(HistLog, CoarsenessSumsNeighbouringBins) {
  for (std::uint32_t coarseness : {1u, 6u}) {
    testing::TempDir dir;
    JobSpec job = hist_job(dir);
    job.logs.log_hist_coarseness = coarseness;
    const RunResult r = run_jobs({job}, quiet());
    const auto rows = read_log(dir.file("h_clat_hist.1.log"));
    ASSERT_EQ(rows.size(), 2u);
    for (std::size_t d = 0; d < 2; ++d) {
      EXPECT_EQ(rows[d].size(), 3u + (HistLog::kFioBins >> coarseness)) << coarseness;
      const std::uint64_t total = std::accumulate(rows[d].begin() + 3, rows[d].end(), std::uint64_t{0});
      EXPECT_EQ(total, r.groups[0].jobs[0].dirs[d].ios) << coarseness;
    }
  }
}

TEST(HistLog, BinsUseFiosIndex) {
  // fio's plat_val_to_idx: values below 128 map to themselves; 1000 ns -> (3+1)*64 + ((1000>>3) & 63) = 317.
  EXPECT_EQ(LatencyHistogram::bucket_of(100), 100);
  EXPECT_EQ(LatencyHistogram::bucket_of(1000), 317);
}

TEST(HistLog, WindowsAreDeltas) {
  testing::TempDir dir;
  JobSpec job = hist_job(dir);
  job.workload.rw = RwMode::kRandRead;
  job.time.time_based = true;
  job.time.runtime = std::chrono::milliseconds(70);  // three whole windows and a part: 20 ms is as good as 100 here
  job.logs.log_hist_msec = 20;
  const RunResult r = run_jobs({job}, quiet());
  const auto rows = read_log(dir.file("h_clat_hist.1.log"));
  ASSERT_GE(rows.size(), 3u);
  std::uint64_t total = 0;
  for (const auto& row : rows) total += std::accumulate(row.begin() + 3, row.end(), std::uint64_t{0});
  EXPECT_EQ(total, r.groups[0].jobs[0].dirs[0].ios);
  EXPECT_EQ(rows[0][0], 20u);
}

TEST(HistLog, PerJobLogsZeroSharesOneFile) {
  testing::TempDir dir;
  JobSpec job = hist_job(dir);
  job.workload.rw = RwMode::kRandRead;
  job.control.numjobs = 2;
  job.logs.per_job_logs = false;
  job.logs.write_bw_log = dir.file("h");
  run_jobs({job}, quiet());
  EXPECT_EQ(read_log(dir.file("h_clat_hist.log")).size(), 2u);  // one line per clone
  EXPECT_EQ(read_log(dir.file("h_bw.log")).size(), 512u);       // 256 ios per clone
  EXPECT_FALSE(std::filesystem::exists(dir.file("h_clat_hist.1.log")));
}

}  // namespace
}  // namespace sluice
