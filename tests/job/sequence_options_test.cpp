// random_distribution=sequence:I1,I2,... and random_sequence_stride (fio master): parsing as fio's options.c.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/error.h"
#include "job/option_table.h"
#include "job_with.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;
using testing::job_with;

std::string distribution_error(const char* value) {
  try {
    job_with({{"random_distribution", value}});
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

TEST(SequenceOption, ListOfBlockIndices) {
  const JobSpec job = job_with({{"random_distribution", "sequence:2,0,1"}});
  EXPECT_EQ(job.workload.random_distribution.kind, DistributionKind::kSequence);
  EXPECT_EQ(job.workload.random_distribution.sequence, (std::vector<std::uint32_t>{2, 0, 1}));
  EXPECT_FALSE(job.workload.random_sequence_stride);
}

TEST(SequenceOption, BlanksAroundElementsAreIgnored) {
  EXPECT_EQ(job_with({{"random_distribution", "sequence: 7 ,\t3"}}).workload.random_distribution.sequence,
            (std::vector<std::uint32_t>{7, 3}));
}

TEST(SequenceOption, SixtyFourElementsAtMost) {
  std::string list = "sequence:0";
  for (int i = 1; i < 64; ++i) list += "," + std::to_string(i);
  EXPECT_EQ(job_with({{"random_distribution", list.c_str()}}).workload.random_distribution.sequence.size(), 64u);
  list += ",64";
  EXPECT_THAT(distribution_error(list.c_str()), HasSubstr("at most 64 block indices"));
}

TEST(SequenceOption, RefusesWhatFioRefuses) {
  EXPECT_THAT(distribution_error("sequence"), HasSubstr("sequence needs its block indices"));
  EXPECT_THAT(distribution_error("sequence:"), HasSubstr("element '' is not a block index"));
  EXPECT_THAT(distribution_error("sequence:1,,2"), HasSubstr("element '' is not a block index"));
  EXPECT_THAT(distribution_error("sequence:1,-2"), HasSubstr("element '-2' is not a block index"));
  EXPECT_THAT(distribution_error("sequence:4k"), HasSubstr("element '4k' is not a block index"));
  EXPECT_THAT(distribution_error("sequence:4294967296"), HasSubstr("above 4294967295"));
  EXPECT_EQ(job_with({{"random_distribution", "sequence:4294967295"}}).workload.random_distribution.sequence[0],
            4294967295u);
}

TEST(SequenceOption, StrideIsABool) {
  EXPECT_TRUE(job_with({{"random_sequence_stride", "1"}}).workload.random_sequence_stride);
  EXPECT_FALSE(job_with({{"random_sequence_stride", "0"}}).workload.random_sequence_stride);
  EXPECT_THROW(job_with({{"random_sequence_stride", "2"}}), UserError);
}

}  // namespace
}  // namespace sluice
