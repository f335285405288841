#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <iterator>
#include <set>
#include <utility>

#include "job/job_spec.h"
#include "support/temp_dir.h"
#include "targets/target_file.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<TargetFile> one_file(const testing::TempDir& dir, std::uint64_t size, JobSpec& job) {
  job.name = "lay";
  job.target.directory = dir.path();
  job.target.size.bytes = size;
  return resolve_targets(job, 0);
}

TEST(PrepareTargets, NewFileGetsTheRightSize) {
  testing::TempDir dir;
  JobSpec job;
  auto targets = one_file(dir, (3 << 20) + 1234, job);
  prepare_targets(targets, job, nullptr);
  EXPECT_EQ(std::filesystem::file_size(targets[0].path), (3u << 20) + 1234);
  EXPECT_TRUE(targets[0].created_by_sluice);
}

TEST(PrepareTargets, DataHasNoZeroBlockAndLooksRandom) {
  testing::TempDir dir;
  JobSpec job;
  auto targets = one_file(dir, 2 << 20, job);
  prepare_targets(targets, job, nullptr);
  std::string data = read_all(targets[0].path);
  std::set<std::string> distinct;
  for (std::size_t at = 0; at < data.size(); at += 4096) {
    std::string block = data.substr(at, 4096);
    EXPECT_NE(std::count(block.begin(), block.end(), '\0'), static_cast<long>(block.size())) << "zero block at " << at;
    std::array<bool, 256> seen{};  // the distinct byte values (a std::set<char> a block took most of the test's time)
    std::size_t kinds = 0;
    for (const char c : block) kinds += std::exchange(seen[static_cast<unsigned char>(c)], true) ? 0 : 1;
    EXPECT_GT(kinds, 200u) << "low-entropy block at " << at;
    distinct.insert(block);
  }
  EXPECT_EQ(distinct.size(), data.size() / 4096);  // no repeated block: nothing for dedup or compression
}

TEST(PrepareTargets, ShortExistingFileIsExtendedKeepingItsData) {
  testing::TempDir dir;
  dir.make_file("lay.0.0", 5000);
  JobSpec job;
  auto targets = one_file(dir, 65536, job);
  prepare_targets(targets, job, nullptr);
  std::string data = read_all(targets[0].path);
  ASSERT_EQ(data.size(), 65536u);
  EXPECT_EQ(data.substr(0, 5000), std::string(5000, 'x'));
  EXPECT_NE(data.substr(5000, 4096), std::string(4096, '\0'));
  EXPECT_FALSE(targets[0].created_by_sluice);
}

TEST(PrepareTargets, LongEnoughFileIsLeftAlone) {
  testing::TempDir dir;
  dir.make_file("lay.0.0", 8192);
  JobSpec job;
  auto targets = one_file(dir, 4096, job);
  prepare_targets(targets, job, nullptr);
  EXPECT_EQ(read_all(targets[0].path), std::string(8192, 'x'));
}

TEST(PrepareTargets, ProgressEndsWithDoneEqualTotal) {
  testing::TempDir dir;
  JobSpec job;
  auto targets = one_file(dir, 1 << 20, job);
  std::uint64_t last_done = 0, last_total = 0;
  int calls = 0;
  prepare_targets(targets, job, [&](const std::string&, std::uint64_t done, std::uint64_t total) {
    ++calls;
    last_done = done;
    last_total = total;
  });
  EXPECT_GE(calls, 1);
  EXPECT_EQ(last_done, 1u << 20);
  EXPECT_EQ(last_total, 1u << 20);
}

// Lowers RLIMIT_FSIZE so writes fail with EFBIG, as a full disk would fail with ENOSPC.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    getrlimit(RLIMIT_FSIZE, &old_);
    old_handler_ = signal(SIGXFSZ, SIG_IGN);
    rlimit lower = old_;
    lower.rlim_cur = bytes;
    setrlimit(RLIMIT_FSIZE, &lower);
  }
  ~FileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &old_);
    signal(SIGXFSZ, old_handler_);
  }

 private:
  rlimit old_{};
  sighandler_t old_handler_ = nullptr;
};

TEST(PrepareTargets, FailureNamesFileAndOffsetAndRemovesTheCreatedFile) {
  testing::TempDir dir;
  JobSpec job;
  auto targets = one_file(dir, 4 << 20, job);
  std::string message;
  {
    FileSizeLimit limit(1 << 20);
    try {
      prepare_targets(targets, job, nullptr);
    } catch (const IoError& e) {
      message = e.what();
    }
  }
  EXPECT_THAT(message, HasSubstr(targets[0].path));
  EXPECT_THAT(message, HasSubstr("offset 1048576"));
  EXPECT_FALSE(std::filesystem::exists(targets[0].path));
  EXPECT_FALSE(targets[0].created_by_sluice);
}

TEST(CloseTargets, UnlinksFilesSluiceCreated) {
  testing::TempDir dir;
  JobSpec job;
  job.workload.rw = RwMode::kWrite;
  auto targets = one_file(dir, 4096, job);
  prepare_targets(targets, job, nullptr);
  open_targets(targets, job);
  close_targets(targets, true);
  EXPECT_EQ(targets[0].fd, -1);
  EXPECT_FALSE(std::filesystem::exists(targets[0].path));
}

TEST(CloseTargets, KeepsFilesSluiceDidNotCreate) {
  testing::TempDir dir;
  dir.make_file("lay.0.0", 4096);
  JobSpec job;
  auto targets = one_file(dir, 4096, job);
  prepare_targets(targets, job, nullptr);
  open_targets(targets, job);
  close_targets(targets, true);
  EXPECT_TRUE(std::filesystem::exists(targets[0].path));
}

int open_flags_for(JobSpec& job, const testing::TempDir& dir) {
  auto targets = one_file(dir, 65536, job);
  prepare_targets(targets, job, nullptr);
  open_targets(targets, job);
  int flags = fcntl(targets[0].fd, F_GETFL);
  close_targets(targets, true);
  return flags;
}

TEST(OpenTargets, ReadJobOpensReadOnly) {
  testing::TempDir dir;
  JobSpec job;
  EXPECT_EQ(open_flags_for(job, dir) & O_ACCMODE, O_RDONLY);
}

TEST(OpenTargets, WriteJobOpensReadWrite) {
  testing::TempDir dir;
  JobSpec job;
  job.workload.rw = RwMode::kRandWrite;
  EXPECT_EQ(open_flags_for(job, dir) & O_ACCMODE, O_RDWR);
}

TEST(OpenTargets, DirectJobOpensWithODirect) {
  testing::TempDir dir;
  JobSpec job;
  job.target.direct = true;
  EXPECT_NE(open_flags_for(job, dir) & O_DIRECT, 0);
}

TEST(OpenTargets, DsyncJobOpensWithODsync) {
  testing::TempDir dir;
  JobSpec job;
  job.durability.sync = SyncMode::kDsync;
  job.workload.rw = RwMode::kWrite;
  EXPECT_EQ(open_flags_for(job, dir) & O_SYNC, O_DSYNC);
}

TEST(OpenTargets, MissingFileForAReadJobIsAnErrorNamingIt) {
  testing::TempDir dir;
  JobSpec job;
  auto targets = one_file(dir, 4096, job);
  try {
    open_targets(targets, job);
    FAIL() << "no error";
  } catch (const IoError& e) {
    EXPECT_THAT(e.what(), HasSubstr(targets[0].path));
  }
}

}  // namespace
}  // namespace sluice
