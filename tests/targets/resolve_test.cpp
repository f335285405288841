#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "job/job_spec.h"
#include "support/temp_dir.h"
#include "targets/target_file.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;

JobSpec job_in(const std::string& dir) {
  JobSpec job;
  job.name = "seq";
  job.target.directory = dir;
  return job;
}

std::string error_of(const JobSpec& job) {
  try {
    resolve_targets(job, 0);
  } catch (const UserError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ResolveTargets, DefaultNamesFollowFioJobnameJobnumFilenum) {
  testing::TempDir dir;
  JobSpec job = job_in(dir.path());
  job.target.size.bytes = 2 << 20;
  job.target.nrfiles = 2;
  auto targets = resolve_targets(job, 3);
  ASSERT_EQ(targets.size(), 2u);
  EXPECT_EQ(targets[0].path, dir.file("seq.3.0"));
  EXPECT_EQ(targets[1].path, dir.file("seq.3.1"));
}

TEST(ResolveTargets, SizeIsSplitAcrossFiles) {
  testing::TempDir dir;
  JobSpec job = job_in(dir.path());
  job.target.size.bytes = 8 << 20;
  job.target.nrfiles = 4;
  for (const TargetFile& t : resolve_targets(job, 0)) {
    EXPECT_EQ(t.size, 2u << 20);
    EXPECT_EQ(t.region_length, 2u << 20);
    EXPECT_EQ(t.region_start, 0u);
    EXPECT_FALSE(t.is_block_device);
  }
}

TEST(ResolveTargets, FilesizeOverridesTheSplit) {
  testing::TempDir dir;
  JobSpec job = job_in(dir.path());
  job.target.size.bytes = 8 << 20;
  job.target.filesize = 1 << 20;
  job.target.nrfiles = 2;
  EXPECT_EQ(resolve_targets(job, 0)[0].size, 1u << 20);
}

TEST(ResolveTargets, FilenamesAreRelativeToDirectory) {
  testing::TempDir dir;
  JobSpec job = job_in(dir.path());
  job.target.filenames = {"a", "/abs/b"};
  job.target.size.bytes = 1 << 20;
  auto targets = resolve_targets(job, 0);
  EXPECT_EQ(targets[0].path, dir.file("a"));
  EXPECT_EQ(targets[1].path, "/abs/b");
}

TEST(ResolveTargets, ExistingFileGivesItsSize) {
  testing::TempDir dir;
  JobSpec job = job_in(dir.path());
  job.target.filenames = {"f"};
  dir.make_file("f", 40960);
  auto t = resolve_targets(job, 0)[0];
  EXPECT_EQ(t.size, 40960u);
  EXPECT_EQ(t.region_length, 40960u);
}

TEST(ResolveTargets, AllowFileCreateZeroRefusesAMissingFileButUsesAnExistingOne) {
  testing::TempDir dir;
  JobSpec job = job_in(dir.path());
  job.target.filenames = {"f"};
  job.target.size.bytes = 1 << 20;
  job.target.allow_file_create = false;
  EXPECT_THAT(error_of(job), HasSubstr(dir.file("f") + " does not exist, and allow_file_create=0 forbids creating it"));
  dir.make_file("f", 4096);
  EXPECT_EQ(resolve_targets(job, 0)[0].region_length, 1u << 20);  // an existing file may still be extended
}

TEST(ResolveTargets, PercentSizeIsOfTheExistingFile) {
  testing::TempDir dir;
  JobSpec job = job_in(dir.path());
  job.target.filenames = {"f"};
  dir.make_file("f", 100000);
  job.target.size.percent = 25;
  EXPECT_EQ(resolve_targets(job, 0)[0].region_length, 25000u);
}

TEST(ResolveTargets, OffsetStartsTheRegionAndShortensIt) {
  testing::TempDir dir;
  JobSpec job = job_in(dir.path());
  job.target.filenames = {"f"};
  dir.make_file("f", 10000);
  job.target.offset.bytes = 4000;
  auto t = resolve_targets(job, 0)[0];
  EXPECT_EQ(t.region_start, 4000u);
  EXPECT_EQ(t.region_length, 6000u);
}

TEST(ResolveTargets, PercentOffsetIsOfTheFile) {
  testing::TempDir dir;
  JobSpec job = job_in(dir.path());
  job.target.filenames = {"f"};
  dir.make_file("f", 10000);
  job.target.offset.percent = 50;
  auto t = resolve_targets(job, 0)[0];
  EXPECT_EQ(t.region_start, 8192u);  // 5000, aligned up to the smallest block size (4k), as fio
  EXPECT_EQ(t.region_length, 10000u - 8192u);
  job.target.offset_align = 1000;
  t = resolve_targets(job, 0)[0];
  EXPECT_EQ(t.region_start, 5000u);
  EXPECT_EQ(t.region_length, 5000u);
  job.workload.bs = {512, 8192, 8192};  // the smallest of any direction, as fio's td_min_bs
  job.target.offset_align = 0;          // 0, as not given
  EXPECT_EQ(resolve_targets(job, 0)[0].region_start, 5120u);
}

TEST(ResolveTargets, OffsetWithSizeOnANewFileLaysOutOffsetPlusSize) {
  testing::TempDir dir;
  JobSpec job = job_in(dir.path());
  job.target.size.bytes = 1 << 20;
  job.target.offset.bytes = 1 << 20;
  auto t = resolve_targets(job, 0)[0];
  EXPECT_EQ(t.region_start, 1u << 20);
  EXPECT_EQ(t.region_length, 1u << 20);
  EXPECT_EQ(t.size, 2u << 20);
}

TEST(ResolveTargets, MissingDirectoryIsAnError) {
  JobSpec job = job_in("/nonexistent-sluice-dir");
  job.target.size.bytes = 4096;
  EXPECT_THAT(error_of(job), HasSubstr("directory /nonexistent-sluice-dir does not exist"));
}

TEST(ResolveTargets, DirectoryWhereAFileIsNeededIsAnError) {
  testing::TempDir dir;
  JobSpec job = job_in("");
  job.target.filenames = {dir.path()};
  job.target.size.bytes = 4096;
  EXPECT_THAT(error_of(job), HasSubstr(dir.path() + " is a directory"));
}

TEST(ResolveTargets, NewFileWithoutSizeAsksForSize) {
  testing::TempDir dir;
  JobSpec job = job_in(dir.path());
  job.target.filenames = {"x"};
  EXPECT_THAT(error_of(job), HasSubstr("--size is needed to create " + dir.file("x")));
}

TEST(ResolveTargets, EmptyExistingFileIsSizeZero) {
  testing::TempDir dir;
  JobSpec job = job_in(dir.path());
  job.target.filenames = {"empty"};
  dir.make_file("empty", 0);
  EXPECT_THAT(error_of(job), HasSubstr("the size of " + dir.file("empty") + " is 0"));
}

TEST(ResolveTargets, OffsetBeyondTheEndIsAnError) {
  testing::TempDir dir;
  JobSpec job = job_in(dir.path());
  job.target.filenames = {"f"};
  dir.make_file("f", 4096);
  job.target.offset.bytes = 8192;
  EXPECT_THAT(error_of(job), HasSubstr("offset 8192 is beyond the end of " + dir.file("f")));
}

TEST(ResolveTargets, DoesNotCreateAnything) {
  testing::TempDir dir;
  JobSpec job = job_in(dir.path());
  job.target.size.bytes = 4096;
  resolve_targets(job, 0);
  EXPECT_FALSE(std::filesystem::exists(dir.file("seq.0.0")));
}

}  // namespace
}  // namespace sluice
