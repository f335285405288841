// file_service_type: the order in which a job's files get their ios (fio 3.33's, checked next to fio in
// tests/run/it_file_service_test.cpp).
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "job/job_spec.h"
#include "workload/io_pattern.h"
#include "workload_test_helpers.h"

namespace sluice {
namespace {

using testing::drain;
using testing::job_for;

std::vector<int> file_order(const JobSpec& job, int files, std::uint64_t file_bytes) {
  std::vector<FileRegion> regions(static_cast<std::size_t>(files), FileRegion{0, file_bytes});
  IoPattern pattern(job, regions, 5);
  std::vector<int> order;
  for (const auto& io : drain(pattern)) order.push_back(io.file_index);
  return order;
}

TEST(IoPatternFiles, RoundRobinIsTheDefaultOneIoEach) {
  EXPECT_EQ(file_order(job_for(RwMode::kRead), 3, 8192), (std::vector<int>{0, 1, 2, 0, 1, 2}));
}

TEST(IoPatternFiles, RoundRobinWithNIssuesNIosPerFile) {
  JobSpec job = job_for(RwMode::kRead);
  job.target.file_service_ios = 2;
  EXPECT_EQ(file_order(job, 2, 4 * 4096), (std::vector<int>{0, 0, 1, 1, 0, 0, 1, 1}));
}

TEST(IoPatternFiles, SequentialFinishesOneFileBeforeTheNext) {
  JobSpec job = job_for(RwMode::kRandRead);
  job.target.file_service = FileService::kSequential;
  EXPECT_EQ(file_order(job, 3, 3 * 4096), (std::vector<int>{0, 0, 0, 1, 1, 1, 2, 2, 2}));
}

TEST(IoPatternFiles, RandomPicksFilesAtRandomUntilEachIsDone) {
  JobSpec job = job_for(RwMode::kRead);
  job.target.file_service = FileService::kRandom;
  const auto order = file_order(job, 4, 64 * 4096);
  ASSERT_EQ(order.size(), 256u);
  std::map<int, int> per_file;
  for (int f : order) ++per_file[f];
  for (int f = 0; f < 4; ++f) EXPECT_EQ(per_file[f], 64) << f;         // every file fully, once
  EXPECT_NE(order, file_order(job_for(RwMode::kRead), 4, 64 * 4096));  // not round robin
}

TEST(IoPatternFiles, RandomWithNKeepsAFileForNIos) {
  JobSpec job = job_for(RwMode::kRead);
  job.target.file_service = FileService::kRandom;
  job.target.file_service_ios = 4;
  const auto order = file_order(job, 4, 64 * 4096);
  for (std::size_t i = 0; i + 4 <= 128; i += 4) {  // before any file is done, runs of 4
    EXPECT_EQ(order[i], order[i + 3]) << i;
  }
}

TEST(IoPatternFiles, ZipfFavoursSomeFiles) {
  JobSpec job = job_for(RwMode::kRead);
  job.target.file_service = FileService::kDistribution;
  job.target.file_distribution.kind = DistributionKind::kZipf;
  job.target.file_distribution.parameter = 1.2;
  job.time.time_based = true;
  std::vector<FileRegion> regions(8, FileRegion{0, 1 << 20});
  IoPattern pattern(job, regions, 5);
  std::map<int, int> per_file;
  for (const auto& io : drain(pattern, 8000)) ++per_file[io.file_index];
  int hottest = 0;
  for (const auto& [file, count] : per_file) hottest = std::max(hottest, count);
  EXPECT_GT(hottest, 8000 / 8 * 2);  // far above a uniform share
}

}  // namespace
}  // namespace sluice
