#include "job/command_line.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/error.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;

std::string error_of(const std::vector<std::string>& args) {
  try {
    parse_job_command_line(args);
  } catch (const UserError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(CommandLine, GlobalsApplyToEveryJob) {
  const auto parsed = parse_job_command_line({"--bs=8k", "--name=a", "--name=b"});
  ASSERT_EQ(parsed.jobs.size(), 2u);
  EXPECT_EQ(parsed.jobs[0].name, "a");
  EXPECT_EQ(parsed.jobs[1].name, "b");
  EXPECT_EQ(parsed.jobs[0].workload.bs[0], 8192u);
  EXPECT_EQ(parsed.jobs[1].workload.bs[0], 8192u);
}

TEST(CommandLine, JobOptionOverridesGlobalForThatJobOnly) {
  const auto parsed = parse_job_command_line({"--iodepth=4", "--name=a", "--iodepth=16", "--name=b"});
  ASSERT_EQ(parsed.jobs.size(), 2u);
  EXPECT_EQ(parsed.jobs[0].queue.iodepth, 16u);
  EXPECT_EQ(parsed.jobs[1].queue.iodepth, 4u);
  EXPECT_EQ(parsed.globals.queue.iodepth, 4u);
}

TEST(CommandLine, OptionsAfterNameDoNotLeakIntoLaterJobs) {
  const auto parsed = parse_job_command_line({"--name=a", "--rw=write", "--name=b"});
  EXPECT_EQ(parsed.jobs[0].workload.rw, RwMode::kWrite);
  EXPECT_EQ(parsed.jobs[1].workload.rw, RwMode::kRead);
}

TEST(CommandLine, NoNameMakesOneJobCalledSluice) {
  const auto parsed = parse_job_command_line({"--rw=randread", "--size=1g"});
  ASSERT_EQ(parsed.jobs.size(), 1u);
  EXPECT_EQ(parsed.jobs[0].name, "sluice");
  EXPECT_EQ(parsed.jobs[0].workload.rw, RwMode::kRandRead);
}

TEST(CommandLine, NoJobWithoutOptions) { EXPECT_TRUE(parse_job_command_line({}).jobs.empty()); }

TEST(CommandLine, JobFilesArePositional) {
  const auto parsed = parse_job_command_line({"--bs=8k", "a.fio", "b.fio"});
  EXPECT_EQ(parsed.job_files, (std::vector<std::string>{"a.fio", "b.fio"}));
  EXPECT_TRUE(parsed.jobs.empty());
  EXPECT_EQ(parsed.globals.workload.bs[1], 8192u);
}

TEST(CommandLine, FlagsWithoutValue) {
  const auto parsed = parse_job_command_line({"--name=a", "--direct", "--time_based", "--runtime=5"});
  EXPECT_TRUE(parsed.jobs[0].target.direct);
  EXPECT_TRUE(parsed.jobs[0].time.time_based);
}

TEST(CommandLine, KbBaseAppliesToSizesBeforeIt) {
  const auto parsed = parse_job_command_line({"--name=a", "--bs=4k", "--kb_base=1000"});
  EXPECT_EQ(parsed.jobs[0].workload.bs[0], 4000u);
}

TEST(CommandLineErrors, UnknownOptionSuggests) {
  EXPECT_EQ(error_of({"--bsz=4k"}), "--bsz=4k: unknown option; did you mean --bs?");
}

TEST(CommandLineErrors, ValueMissing) {
  EXPECT_EQ(error_of({"--bs"}), "--bs: value missing; use --bs=VALUE");
  EXPECT_EQ(error_of({"--name"}), "--name: value missing; use --name=JOBNAME");
}

TEST(CommandLineErrors, JobOptionsNeedEquals) {
  // fio takes job options only as --opt=value; "--bs 4k" leaves "4k" as a job file and bs without a value.
  EXPECT_EQ(error_of({"--bs", "4k"}), "--bs: value missing; use --bs=VALUE");
}

TEST(CommandLineErrors, BadValue) {
  EXPECT_EQ(error_of({"--name=a", "--bs=4q"}), "--bs=4q: not a size; sizes look like 4k, 1m, 10%");
}

TEST(CommandLineErrors, SingleDash) { EXPECT_THAT(error_of({"-x"}), HasSubstr("-x: unknown option")); }

TEST(CommandLine, LogFlagNamedAfterJob) {
  const auto parsed = parse_job_command_line({"--write_bw_log", "--name=seqread", "--write_lat_log=lat"});
  EXPECT_EQ(parsed.jobs[0].logs.write_bw_log, "seqread");
  EXPECT_EQ(parsed.jobs[0].logs.write_lat_log, "lat");
}

TEST(CommandLineErrors, UnsupportedFlagAlone) {
  EXPECT_THAT(error_of({"--skip_bad"}),
              HasSubstr("--skip_bad: not supported by sluice (an option of fio's mtd engine(s), which sluice does not "
                        "have)"));
}

TEST(CommandLineErrors, UnsupportedEngine) {
  EXPECT_EQ(error_of({"--ioengine=rbd"}),
            "--ioengine=rbd is not supported by sluice: fio's Ceph RBD engine (librbd): remote storage (supported: "
            "psync, sync, libaio, io_uring, mmap, null, falloc, "
            "ftruncate, filecreate, filestat, filedelete, cpuio, exec, posixaio, pvsync, pvsync2, vsync, splice, "
            "e4defrag, dircreate, dirstat, dirdelete, page_fault)");
}

}  // namespace
}  // namespace sluice
