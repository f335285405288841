#include "job/validate.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "job/option_table.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;
using Severity = Problem::Severity;

JobSpec job_at_lines(const std::vector<std::pair<std::string, std::string>>& options) {
  JobSpec job;
  job.name = "t";
  int line = 1;
  for (const auto& [name, value] : options) apply_option(job, name, value, SourcePos{"job.fio", line++});
  return job;
}

// The only problem about `option`, which must exist.
Problem only_problem(const std::vector<Problem>& problems, const std::string& option) {
  std::vector<Problem> matching;
  for (const Problem& p : problems) {
    if (p.option == option) matching.push_back(p);
  }
  EXPECT_EQ(matching.size(), 1u) << "problems about " << option;
  return matching.empty() ? Problem{} : matching.front();
}

TEST(Validate, DefaultsAreClean) { EXPECT_TRUE(validate(JobSpec{}).empty()); }

TEST(Validate, DirectNeedsSectorMultiples) {
  const auto problems = validate(job_at_lines({{"direct", "1"}, {"bs", "1000"}}));
  const Problem p = only_problem(problems, "bs");
  EXPECT_EQ(p.severity, Severity::kError);
  EXPECT_EQ(p.message,
            "bs=1000 with direct=1: O_DIRECT needs multiples of the logical block size (usually 512 or 4096)");
  EXPECT_EQ(p.where.describe(), "job.fio:2");
}

TEST(Validate, DirectWithAlignedBsIsFine) {
  EXPECT_TRUE(validate(job_at_lines({{"direct", "1"}, {"bs", "4k"}})).empty());
}

TEST(Validate, DirectChecksBssplitSizes) {
  const auto problems = validate(job_at_lines({{"direct", "1"}, {"bssplit", "4k/50:1000/50"}}));
  EXPECT_EQ(only_problem(problems, "bssplit").severity, Severity::kError);
}

TEST(Validate, FillDeviceNeedsSequentialWritesOrAReadJob) {
  const Problem p = only_problem(validate(job_at_lines({{"rw", "randwrite"}, {"fill_fs", "1"}})), "fill_device");
  EXPECT_EQ(p.severity, Severity::kError);
  EXPECT_EQ(p.message,
            "fill_device=1 needs rw=write (sequential writes until the filesystem is full), or rw=read or "
            "randread (the file is filled first); not rw=randwrite");
  EXPECT_EQ(p.where.describe(), "job.fio:2");
  for (const char* rw : {"write", "read", "randread"}) {
    EXPECT_TRUE(validate(job_at_lines({{"rw", rw}, {"fill_device", "1"}})).empty()) << rw;
  }
}

TEST(Validate, ZeroBlockSize) {
  JobSpec job;
  job.workload.bs = {0, 0, 0};
  EXPECT_THAT(only_problem(validate(job), "bs").message, HasSubstr("bs=0"));
}

TEST(Validate, ZeroIodepthAndNumjobs) {
  JobSpec job;
  job.queue.iodepth = 0;
  job.control.numjobs = 0;
  const auto problems = validate(job);
  EXPECT_EQ(only_problem(problems, "iodepth").message, "iodepth=0: must be at least 1");
  EXPECT_EQ(only_problem(problems, "numjobs").message, "numjobs=0: must be at least 1");
}

TEST(Validate, RwmixreadAboveHundred) {
  JobSpec job;
  job.workload.rwmixread = 101;
  EXPECT_EQ(only_problem(validate(job), "rwmixread").severity, Severity::kError);
}

TEST(Validate, TimeBasedNeedsRuntime) {
  const Problem p = only_problem(validate(job_at_lines({{"time_based", ""}})), "time_based");
  EXPECT_EQ(p.severity, Severity::kError);
  EXPECT_EQ(p.message, "time_based needs runtime");
  EXPECT_EQ(p.where.describe(), "job.fio:1");
}

TEST(Validate, RampNotShorterThanRuntimeWarns) {
  const auto problems = validate(job_at_lines({{"time_based", "1"}, {"runtime", "10"}, {"ramp_time", "10"}}));
  const Problem p = only_problem(problems, "ramp_time");
  EXPECT_EQ(p.severity, Severity::kWarning);
  EXPECT_THAT(p.message, HasSubstr("ramp_time=10 s is not shorter than runtime=10 s"));
}

TEST(Validate, NorandommapWithSequentialWarns) {
  const Problem p = only_problem(validate(job_at_lines({{"norandommap", "1"}})), "norandommap");
  EXPECT_EQ(p.severity, Severity::kWarning);
  EXPECT_THAT(p.message, HasSubstr("no effect with rw=read"));
}

TEST(Validate, PercentileOutOfRange) {
  JobSpec job;
  job.report.percentile_list = {50, 120};
  EXPECT_EQ(only_problem(validate(job), "percentile_list").severity, Severity::kError);
}

TEST(Validate, BssplitMustSumToHundred) {
  const Problem p = only_problem(validate(job_at_lines({{"bssplit", "4k/50:8k/40"}})), "bssplit");
  EXPECT_EQ(p.severity, Severity::kError);
  EXPECT_EQ(p.message, "bssplit for reads: percentages add up to 90, not 100");
}

TEST(Validate, RateAndRateIopsOnSameDirection) {
  const auto problems = validate(job_at_lines({{"rw", "write"}, {"rate", ",10m,"}, {"rate_iops", ",100,"}}));
  EXPECT_EQ(only_problem(problems, "rate_iops").message, "rate and rate_iops both limit writes; use one of them");
}

TEST(Validate, RateAndRateIopsOnDifferentDirectionsIsFine) {
  EXPECT_TRUE(validate(job_at_lines({{"rw", "rw"}, {"rate", "10m,0,0"}, {"rate_iops", "0,100,0"}})).empty());
}

TEST(Validate, TrimWithMmapIsAnError) {
  const Problem p = only_problem(validate(job_at_lines({{"rw", "trim"}, {"ioengine", "mmap"}})), "ioengine");
  EXPECT_EQ(p.severity, Severity::kError);
  EXPECT_EQ(p.message,
            "rw=trim cannot be done with ioengine=mmap (trims work with psync, sync, libaio, io_uring, null, falloc, "
            "posixaio, pvsync, pvsync2, vsync and splice)");
}

TEST(Validate, TrimWithIoUringIsFine) {
  EXPECT_TRUE(validate(job_at_lines({{"rw", "randtrim"}, {"ioengine", "io_uring"}})).empty());
}

TEST(Validate, TrimWithLibaioIsFine) {
  EXPECT_TRUE(validate(job_at_lines({{"rw", "trim"}, {"ioengine", "libaio"}})).empty());
}

TEST(Validate, TrimWithSyncIsFine) {
  EXPECT_TRUE(validate(job_at_lines({{"rw", "randtrim"}, {"ioengine", "sync"}})).empty());
}

// The engine table's trim claim is what validation enforces (tests/engine/engine_traits_test.cpp checks the
// claim against the engines).
TEST(Validate, TrimIsRefusedExactlyOnEnginesWithoutTrim) {
  for (const EngineTraits& t : kEngineTable) {
    const auto problems = validate(job_at_lines({{"rw", "trim"}, {"ioengine", std::string(t.name)}}));
    const bool refused = std::any_of(problems.begin(), problems.end(), [](const Problem& p) {
      return p.option == "ioengine" && p.severity == Severity::kError;
    });
    EXPECT_EQ(refused, !t.trim) << t.name;
  }
}

TEST(Validate, SyncEngineWithDepthWarns) {
  const Problem p = only_problem(validate(job_at_lines({{"iodepth", "32"}})), "iodepth");
  EXPECT_EQ(p.severity, Severity::kWarning);
  EXPECT_EQ(p.message,
            "iodepth=32 has no effect with ioengine=psync (a synchronous engine keeps one io in flight per job); "
            "use io_uring or libaio");
}

TEST(Validate, AsyncEngineWithDepthIsFine) {
  EXPECT_TRUE(validate(job_at_lines({{"ioengine", "io_uring"}, {"iodepth", "32"}})).empty());
}

TEST(Validate, ZeroBuffersConflictWithCompression) {
  const auto problems = validate(job_at_lines({{"zero_buffers", "1"}, {"buffer_compress_percentage", "50"}}));
  EXPECT_EQ(only_problem(problems, "buffer_compress_percentage").severity, Severity::kError);
}

TEST(Validate, ProblemWithoutPositionUsesJobStart) {
  JobSpec job;
  job.where = SourcePos{"jobs.fio", 7};
  job.queue.iodepth = 0;
  EXPECT_EQ(only_problem(validate(job), "iodepth").where.describe(), "jobs.fio:7");
}

TEST(Validate, FsyncOnReadOnlyJobWarns) {
  const Problem p = only_problem(validate(job_at_lines({{"fsync", "1"}})), "fsync");
  EXPECT_EQ(p.severity, Severity::kWarning);
  EXPECT_EQ(p.message, "fsync has no effect with rw=read (the job does not write); ignored");
}

TEST(Validate, BatchAboveDepthWarns) {
  const auto problems =
      validate(job_at_lines({{"ioengine", "io_uring"}, {"iodepth", "8"}, {"iodepth_batch_submit", "16"}}));
  EXPECT_EQ(only_problem(problems, "iodepth_batch_submit").severity, Severity::kWarning);
}

TEST(Validate, CompletionMinAboveMax) {
  const auto problems = validate(job_at_lines({{"ioengine", "io_uring"},
                                               {"iodepth", "8"},
                                               {"iodepth_batch_complete_min", "8"},
                                               {"iodepth_batch_complete_max", "4"}}));
  EXPECT_EQ(only_problem(problems, "iodepth_batch_complete_min").severity, Severity::kError);
}

}  // namespace
}  // namespace sluice

namespace sluice {
namespace {

bool mentions(const std::vector<Problem>& problems, const std::string& option) {
  for (const Problem& p : problems) {
    if (p.option == option) return true;
  }
  return false;
}

TEST(ValidateFioOptions, EngineFlagOptionsOfAnotherEngineAreAWarning) {
  const Problem p = only_problem(validate(job_at_lines({{"nowait", "1"}})), "nowait");
  EXPECT_EQ(p.severity, Severity::kWarning);
  EXPECT_EQ(p.message, "nowait has no effect with ioengine=psync (it is an option of pvsync2, io_uring, libaio)");
  EXPECT_FALSE(mentions(validate(job_at_lines({{"ioengine", "libaio"}, {"nowait", "1"}})), "nowait"));
  EXPECT_FALSE(
      mentions(validate(job_at_lines({{"ioengine", "pvsync2"}, {"hipri_percentage", "50"}})), "hipri_percentage"));
  EXPECT_TRUE(mentions(validate(job_at_lines({{"ioengine", "io_uring"}, {"userspace_reap", "1"}})), "userspace_reap"));
}

TEST(ValidateFioOptions, UnlinkEachLoopNeedsAWritingJobOnADescriptorEngine) {
  const Problem reads = only_problem(
      validate(job_at_lines({{"rw", "randrw"}, {"loops", "2"}, {"unlink_each_loop", "1"}})), "unlink_each_loop");
  EXPECT_EQ(reads.severity, Severity::kError);
  const Problem mmap = only_problem(
      validate(job_at_lines({{"rw", "write"}, {"loops", "2"}, {"ioengine", "mmap"}, {"unlink_each_loop", "1"}})),
      "unlink_each_loop");
  EXPECT_EQ(mmap.severity, Severity::kError);
  const Problem one_loop =
      only_problem(validate(job_at_lines({{"rw", "write"}, {"unlink_each_loop", "1"}})), "unlink_each_loop");
  EXPECT_EQ(one_loop.severity, Severity::kWarning);
  EXPECT_FALSE(mentions(
      validate(job_at_lines({{"rw", "write"}, {"loops", "3"}, {"ioengine", "vsync"}, {"unlink_each_loop", "1"}})),
      "unlink_each_loop"));
}

TEST(ValidateFioOptions, TrimVerificationNeedsBothOptionsAndATrimmingEngine) {
  const Problem alone = only_problem(
      validate(job_at_lines({{"rw", "write"}, {"verify", "md5"}, {"trim_percentage", "10"}})), "trim_percentage");
  EXPECT_EQ(alone.severity, Severity::kWarning);
  EXPECT_EQ(alone.message, "trim_percentage has no effect without trim_backlog=N (no trims, as in fio)");
  const Problem mmap = only_problem(validate(job_at_lines({{"rw", "write"},
                                                           {"verify", "md5"},
                                                           {"ioengine", "mmap"},
                                                           {"trim_percentage", "10"},
                                                           {"trim_backlog", "4"}})),
                                    "trim_percentage");
  EXPECT_EQ(mmap.severity, Severity::kError);
  EXPECT_FALSE(mentions(
      validate(job_at_lines({{"rw", "write"}, {"verify", "md5"}, {"trim_percentage", "10"}, {"trim_backlog", "4"}})),
      "trim_percentage"));
  const Problem no_verify =
      only_problem(validate(job_at_lines({{"rw", "write"}, {"trim_backlog", "4"}})), "trim_backlog");
  EXPECT_EQ(no_verify.message, "trim_backlog has no effect without verify=");
}

TEST(Validate, RampSizeAndRampTimeExcludeEachOther) {
  const Problem p = only_problem(validate(job_at_lines({{"ramp_time", "1"}, {"ramp_size", "1m"}})), "ramp_size");
  EXPECT_EQ(p.severity, Severity::kError);
  EXPECT_NE(p.message.find("ramp_size and ramp_time exclude each other"), std::string::npos) << p.message;
  EXPECT_TRUE(validate(job_at_lines({{"ramp_size", "1m"}})).empty());
}

// end_syncfs: the engines fio 3.42 can syncfs with, and null (nothing to sync); mmap is refused by name.
TEST(Validate, EndSyncfsNeedsAnEngineThatCanSyncfs) {
  for (const char* engine : {"psync", "libaio", "io_uring", "posixaio", "null"}) {
    EXPECT_TRUE(validate(job_at_lines({{"ioengine", engine}, {"rw", "write"}, {"end_syncfs", "1"}})).empty()) << engine;
  }
  const Problem p =
      only_problem(validate(job_at_lines({{"ioengine", "mmap"}, {"rw", "write"}, {"end_syncfs", "1"}})), "end_syncfs");
  EXPECT_EQ(p.severity, Severity::kError);
  EXPECT_NE(p.message.find("end_syncfs cannot be done with ioengine=mmap"), std::string::npos) << p.message;
  EXPECT_NE(p.message.find("psync, sync, vsync"), std::string::npos) << p.message;
}

}  // namespace
}  // namespace sluice
