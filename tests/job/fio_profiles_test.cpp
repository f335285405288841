// fio's --profile=tiobench and --profile=act on sluice's command line: their jobs with the profiles' options, and
// the refusals.
#include "job/fio_profiles.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/error.h"
#include "job/command_line.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;

// The jobs of a command line with a profile, as sluice run gets them: expanded, parsed, finished.
JobCommandLine parse_profile(const std::vector<std::string>& args) {
  JobCommandLine parsed = parse_job_command_line(expand_fio_profile(args));
  finish_fio_profile_jobs(args, parsed);
  return parsed;
}

std::string profile_error(const std::vector<std::string>& args) {
  try {
    parse_profile(args);
  } catch (const UserError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(FioProfiles, ArgumentsWithoutAProfileAreUnchanged) {
  const std::vector<std::string> args = {"--name=a", "--size=1m", "job.fio"};
  EXPECT_EQ(expand_fio_profile(args), args);
}

TEST(FioProfiles, TiobenchIsFourStonewalledJobsWithItsOptions) {
  const JobCommandLine parsed =
      parse_profile({"--profile=tiobench", "--size=4", "--block=8192", "--numruns=2", "--dir=/tmp", "--threads=3"});
  ASSERT_EQ(parsed.jobs.size(), 4u);
  const char* names[] = {"seqwrite", "randwrite", "seqread", "randread"};
  const RwMode modes[] = {RwMode::kWrite, RwMode::kRandWrite, RwMode::kRead, RwMode::kRandRead};
  for (std::size_t i = 0; i < 4; ++i) {
    const JobSpec& job = parsed.jobs[i];
    EXPECT_EQ(job.name, names[i]);
    EXPECT_EQ(job.workload.rw, modes[i]);
    EXPECT_EQ(job.target.size.bytes, 4u << 20);
    EXPECT_EQ(job.workload.bs[0], 8192u);
    EXPECT_EQ(job.time.loops, 2u);
    EXPECT_EQ(job.control.numjobs, 3u);
    EXPECT_EQ(job.target.directory, "/tmp");
    EXPECT_TRUE(job.target.direct) << "buffered=0";
    EXPECT_EQ(job.engine.ioengine, EngineKind::kSync);
    EXPECT_EQ(job.target.filenames.size(), 4u);
    EXPECT_EQ(job.durability.end_fsync, i < 2) << names[i];
    EXPECT_EQ(job.control.stonewall, i > 0) << names[i];
  }
}

TEST(FioProfiles, DefaultsAreFios) {
  const JobCommandLine parsed = parse_profile({"--profile", "tiobench"});
  ASSERT_EQ(parsed.jobs.size(), 4u);
  EXPECT_EQ(parsed.jobs[0].workload.bs[0], 4096u);
  EXPECT_EQ(parsed.jobs[0].target.directory, "./");
  EXPECT_EQ(parsed.jobs[0].control.numjobs, 1u);
  EXPECT_GT(parsed.jobs[0].target.size.bytes, 0u) << "4 KiB per MiB of memory";
}

// fio's profiles/act.c: per device, threads-per-queue read jobs sharing load x 2000 reads/s of
// read-req-num-512-blocks x 512 bytes, and one writer of large-block-op-kbytes (as bytes) at load x 1000 / the
// reads per write; direct, sync, time_based for test-duration, judged hourly.
TEST(FioProfiles, ActIsReadersAndAWriterPerDevice) {
  const JobCommandLine parsed = parse_profile(
      {"--profile=act", "--device-names=/dev/a,/dev/b", "--load=3", "--test-duration=2h", "--threads-per-queue=4"});
  ASSERT_EQ(parsed.jobs.size(), 4u);
  const JobSpec& reads = parsed.jobs[0];
  EXPECT_EQ(reads.name, "act-read-/dev/a");
  EXPECT_EQ(reads.workload.rw, RwMode::kRandRead);
  EXPECT_EQ(reads.control.numjobs, 4u);
  EXPECT_EQ(reads.pacing.rate_iops[0], 1500u);  // 3 x 2000 / 4
  EXPECT_EQ(reads.workload.bs[0], 1536u);
  EXPECT_TRUE(reads.target.direct);
  EXPECT_EQ(reads.engine.ioengine, EngineKind::kSync);
  EXPECT_TRUE(reads.time.time_based);
  EXPECT_EQ(reads.time.runtime, std::chrono::hours(2));
  EXPECT_EQ(reads.report.act_slice_ns, 3600ull * 1'000'000'000ull);
  EXPECT_EQ(reads.report.act_duration_ns, 7200ull * 1'000'000'000ull);
  const JobSpec& writes = parsed.jobs[1];
  EXPECT_EQ(writes.name, "act-write-/dev/a");
  EXPECT_EQ(writes.workload.rw, RwMode::kRandWrite);
  EXPECT_EQ(writes.workload.bs[1], 131072u);
  EXPECT_EQ(writes.pacing.rate_iops[1], 36u);  // ceil(3000 / (131072 / 1536 = 85))
  EXPECT_EQ(parsed.jobs[2].target.filenames.front(), "/dev/b");
}

TEST(FioProfiles, ActPrepZeroesThenSaltsEachDevice) {
  const JobCommandLine parsed = parse_profile({"--profile=act", "--device-names=/dev/a", "--prep"});
  ASSERT_EQ(parsed.jobs.size(), 2u);
  EXPECT_EQ(parsed.jobs[0].name, "act-prep-zeroes-/dev/a");
  EXPECT_TRUE(parsed.jobs[0].buffers.zero_buffers);
  EXPECT_EQ(parsed.jobs[0].workload.bs[1], 1u << 20);
  EXPECT_EQ(parsed.jobs[1].workload.rw, RwMode::kRandWrite);
  EXPECT_EQ(parsed.jobs[1].queue.iodepth, 64u);
  EXPECT_TRUE(parsed.jobs[1].control.stonewall);
  EXPECT_EQ(parsed.jobs[1].report.act_slice_ns, 0u) << "the prep phase is not judged";
}

TEST(FioProfiles, RefusalsNameTheReason) {
  EXPECT_THAT(profile_error({"--profile=act"}), HasSubstr("--device-names"));
  EXPECT_THAT(profile_error({"--profile=act", "--device-names=/dev/x", "--load=0"}), HasSubstr("whole number"));
  EXPECT_THAT(profile_error({"--profile=act", "--device-names=/dev/x", "--test-duration=soon"}),
              HasSubstr("test-duration"));
  EXPECT_THAT(profile_error({"--profile=tiobenc"}), HasSubstr("no such profile"));
  EXPECT_THAT(profile_error({"--profile=tiobench", "--size=1g"}), HasSubstr("whole number of MiB"));
  EXPECT_THAT(profile_error({"--profile=tiobench", "--name=x"}), HasSubstr("--name jobs cannot be added"));
  EXPECT_THAT(profile_error({"--profile=tiobench", "job.fio"}), HasSubstr("job files cannot be added"));
}

}  // namespace
}  // namespace sluice
