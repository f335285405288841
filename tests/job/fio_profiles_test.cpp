// fio's --profile=tiobench on sluice's command line: its four jobs with the profile's options, and the refusals.
#include "job/fio_profiles.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/error.h"
#include "job/command_line.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;

std::string profile_error(const std::vector<std::string>& args) {
  try {
    parse_run_command_line(args);
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
  const ParsedCommandLine parsed =
      parse_run_command_line({"--profile=tiobench", "--size=4", "--block=8192", "--numruns=2", "--dir=/tmp",
                              "--threads=3", "--output-format=json"});
  ASSERT_EQ(parsed.jobs.size(), 4u);
  const char* names[] = {"seqwrite", "randwrite", "seqread", "randread"};
  const RwMode modes[] = {RwMode::kWrite, RwMode::kRandWrite, RwMode::kRead, RwMode::kRandRead};
  for (std::size_t i = 0; i < 4; ++i) {
    const JobSpec& job = parsed.jobs[i];
    EXPECT_EQ(job.name, names[i]);
    EXPECT_EQ(job.rw, modes[i]);
    EXPECT_EQ(job.size.bytes, 4u << 20);
    EXPECT_EQ(job.bs[0], 8192u);
    EXPECT_EQ(job.loops, 2u);
    EXPECT_EQ(job.numjobs, 3u);
    EXPECT_EQ(job.directory, "/tmp");
    EXPECT_TRUE(job.direct) << "buffered=0";
    EXPECT_EQ(job.ioengine, EngineKind::kSync);
    EXPECT_EQ(job.filenames.size(), 4u);
    EXPECT_EQ(job.end_fsync, i < 2) << names[i];
    EXPECT_EQ(job.stonewall, i > 0) << names[i];
  }
}

TEST(FioProfiles, DefaultsAreFios) {
  const ParsedCommandLine parsed = parse_run_command_line({"--profile", "tiobench"});
  ASSERT_EQ(parsed.jobs.size(), 4u);
  EXPECT_EQ(parsed.jobs[0].bs[0], 4096u);
  EXPECT_EQ(parsed.jobs[0].directory, "./");
  EXPECT_EQ(parsed.jobs[0].numjobs, 1u);
  EXPECT_GT(parsed.jobs[0].size.bytes, 0u) << "4 KiB per MiB of memory";
}

TEST(FioProfiles, RefusalsNameTheReason) {
  EXPECT_THAT(profile_error({"--profile=act"}), HasSubstr("ACT"));
  EXPECT_THAT(profile_error({"--profile=tiobenc"}), HasSubstr("no such profile"));
  EXPECT_THAT(profile_error({"--profile=tiobench", "--size=1g"}), HasSubstr("whole number of MiB"));
  EXPECT_THAT(profile_error({"--profile=tiobench", "--name=x"}), HasSubstr("--name jobs cannot be added"));
  EXPECT_THAT(profile_error({"--profile=tiobench", "job.fio"}), HasSubstr("job files cannot be added"));
}

}  // namespace
}  // namespace sluice
