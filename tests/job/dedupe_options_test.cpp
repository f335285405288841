// dedupe_percentage, dedupe_mode, dedupe_working_set_percentage, dedupe_global: parsing, fio 3.33's checks
// (init.c) and the warnings where no buffer could repeat another.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "job/validate.h"
#include "job_with.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;

std::vector<Problem> dedupe_problems(const JobSpec& job) {
  std::vector<Problem> found;
  for (const Problem& p : validate(job)) {
    if (p.option.starts_with("dedupe")) found.push_back(p);
  }
  return found;
}

TEST(DedupeOptions, ParseAsFio) {
  const JobSpec job = testing::job_with({{"rw", "write"},
                                         {"size", "100m"},
                                         {"dedupe_percentage", "50"},
                                         {"dedupe_mode", "working_set"},
                                         {"dedupe_working_set_percentage", "50"},
                                         {"dedupe_global", "1"}});
  EXPECT_EQ(job.buffers.dedupe_percentage, 50u);
  EXPECT_TRUE(job.buffers.dedupe_working_set);
  EXPECT_EQ(job.buffers.dedupe_working_set_percentage, 50u);
  EXPECT_TRUE(job.buffers.dedupe_global);
  EXPECT_TRUE(dedupe_problems(job).empty());
  EXPECT_EQ(JobSpec{}.buffers.dedupe_working_set_percentage, 5u);  // fio's default
  EXPECT_THROW(testing::job_with({{"dedupe_percentage", "101"}}), UserError);
  EXPECT_THROW(testing::job_with({{"dedupe_mode", "workingset"}}), UserError);
}

TEST(DedupeOptions, WorkingSetNeedsSize) {
  const auto found = dedupe_problems(
      testing::job_with({{"rw", "write"}, {"dedupe_percentage", "20"}, {"dedupe_mode", "working_set"}}));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].severity, Problem::Severity::kError);
  EXPECT_THAT(found[0].message, HasSubstr("needs size"));
}

TEST(DedupeOptions, WorkingSetNeedsOneFile) {
  const auto found = dedupe_problems(testing::job_with({{"rw", "write"},
                                                        {"size", "8m"},
                                                        {"nrfiles", "2"},
                                                        {"dedupe_percentage", "20"},
                                                        {"dedupe_mode", "working_set"}}));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_THAT(found[0].message, HasSubstr("one file per job"));
}

TEST(DedupeOptions, PercentagesMayAddUpTo100AtMost) {
  const auto found = dedupe_problems(testing::job_with({{"rw", "write"},
                                                        {"size", "8m"},
                                                        {"dedupe_percentage", "60"},
                                                        {"dedupe_mode", "working_set"},
                                                        {"dedupe_working_set_percentage", "50"}}));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].option, "dedupe_working_set_percentage");
  EXPECT_THAT(found[0].message, HasSubstr("cannot be reached"));
}

TEST(DedupeOptions, WarnsWhereItCannotAct) {
  for (const auto& extra : {std::pair{"rw", "read"}, std::pair{"zero_buffers", "1"}, std::pair{"verify", "crc32c"}}) {
    JobSpec job = testing::job_with({{"rw", "write"}, {"dedupe_percentage", "20"}});
    apply_option(job, extra.first, extra.second, SourcePos{});
    const auto found = dedupe_problems(job);
    ASSERT_EQ(found.size(), 1u) << extra.first;
    EXPECT_EQ(found[0].severity, Problem::Severity::kWarning) << extra.first;
  }
}

}  // namespace
}  // namespace sluice
