// Parsing of fio's placement, priority and buffer-pattern options and the options sluice accepts because it
// always behaves that way (options_placement.cpp), and the backwards rw modifier.
#include <gtest/gtest.h>

#include "common/error.h"
#include "job/job_with.h"
#include "job/option_table.h"

namespace sluice {
namespace {

using testing::job_with;

TEST(PlacementOptions, CpusAllowedTakesListsAndRanges) {
  EXPECT_EQ(job_with({{"cpus_allowed", "4,0-2,2"}}).placement.cpus_allowed, (std::vector<std::uint32_t>{0, 1, 2, 4}));
}

TEST(PlacementOptions, CpusAllowedRefusesADownwardRange) {
  EXPECT_THROW(job_with({{"cpus_allowed", "3-1"}}), UserError);
  EXPECT_THROW(job_with({{"cpus_allowed", "a"}}), UserError);
}

TEST(PlacementOptions, CpumaskSetsTheSameListFromBits) {
  EXPECT_EQ(job_with({{"cpumask", "0x5"}}).placement.cpus_allowed, (std::vector<std::uint32_t>{0, 2}));
  EXPECT_EQ(job_with({{"cpumask", "3"}}).placement.cpus_allowed, (std::vector<std::uint32_t>{0, 1}));
}

TEST(PlacementOptions, CpusAllowedPolicySplit) {
  EXPECT_FALSE(job_with({{"cpus_allowed_policy", "shared"}}).placement.cpus_allowed_split);
  EXPECT_TRUE(job_with({{"cpus_allowed_policy", "split"}}).placement.cpus_allowed_split);
  EXPECT_THROW(job_with({{"cpus_allowed_policy", "spread"}}), UserError);
}

TEST(PlacementOptions, PrioAndPrioclass) {
  const JobSpec job = job_with({{"prio", "6"}, {"prioclass", "3"}});
  EXPECT_EQ(job.placement.ioprio, 6);
  EXPECT_EQ(job.placement.ioprio_class, 3);
  EXPECT_THROW(job_with({{"prio", "8"}}), UserError);
  EXPECT_THROW(job_with({{"prioclass", "0"}}), UserError);
}

TEST(PlacementOptions, BufferPatternDecodesHexAndStrings) {
  EXPECT_EQ(job_with({{"buffer_pattern", "0xdeadbeef"}}).buffers.buffer_pattern, std::string("\xde\xad\xbe\xef"));
  EXPECT_EQ(job_with({{"buffer_pattern", "\"ab\""}}).buffers.buffer_pattern, "ab");
}

TEST(PlacementOptions, AcceptedOptionsParseAndChangeNothing) {
  const JobSpec plain = job_with({});
  const JobSpec job = job_with({{"create_serialize", "1"}, {"verify_async", "4"}});
  EXPECT_EQ(job.placement.cpus_allowed, plain.placement.cpus_allowed);
  EXPECT_EQ(job.verification.verify, plain.verification.verify);
  EXPECT_THROW(job_with({{"verify_async", "x"}}), UserError);
  const JobSpec more = job_with({{"log_entries", "1048576"}, {"gtod_cpu", "1"}});
  EXPECT_EQ(more.placement.cpus_allowed, plain.placement.cpus_allowed);
  // fio 3.33's limits: log_entries from 1024 to 1048576.
  EXPECT_THROW(job_with({{"log_entries", "10"}}), UserError);
  EXPECT_THROW(job_with({{"log_entries", "1048577"}}), UserError);
  EXPECT_THROW(job_with({{"gtod_cpu", "x"}}), UserError);
}

TEST(PlacementOptions, ExitallOnErrorIsAFlag) {
  EXPECT_TRUE(job_with({{"exitall_on_error", ""}}).errors.exitall_on_error);
}

TEST(RwModifier, BackwardsStepOfASequentialMode) {
  const JobSpec job = job_with({{"rw", "read:-8k"}});
  EXPECT_EQ(job.workload.rw, RwMode::kRead);
  EXPECT_TRUE(job.workload.rw_backwards);
  EXPECT_EQ(job.workload.rw_sequential_run, 8192u);
  EXPECT_FALSE(job_with({{"rw", "write:4k"}}).workload.rw_backwards);
}

TEST(RwModifier, BackwardsIsRefusedForRandomModes) { EXPECT_THROW(job_with({{"rw", "randread:-8"}}), UserError); }

}  // namespace
}  // namespace sluice
