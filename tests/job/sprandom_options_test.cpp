// sprandom, spr_num_regions, spr_op, spr_cs: parsing, and fio 3.42's checks (init.c, filesetup.c) with clear
// messages naming the option.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "job/validate.h"
#include "job_with.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;

// The errors of validate(job) about `option`.
std::vector<Problem> sprandom_errors(const JobSpec& job, const std::string& option) {
  std::vector<Problem> matching;
  for (const Problem& p : validate(job)) {
    if (p.option == option && p.severity == Problem::Severity::kError) matching.push_back(p);
  }
  return matching;
}

TEST(SprandomOptions, DefaultsAreFios) {
  const JobSpec job;
  EXPECT_FALSE(job.workload.sprandom);
  EXPECT_EQ(job.workload.spr_num_regions, 100u);
  EXPECT_DOUBLE_EQ(job.workload.spr_op, 0.15);
  EXPECT_EQ(job.workload.spr_cs, 0u);
}

TEST(SprandomOptions, ValuesAreStored) {
  const JobSpec job = testing::job_with(
      {{"rw", "randwrite"}, {"sprandom", "1"}, {"spr_num_regions", "250"}, {"spr_op", "0.07"}, {"spr_cs", "64k"}});
  EXPECT_TRUE(job.workload.sprandom);
  EXPECT_EQ(job.workload.spr_num_regions, 250u);
  EXPECT_DOUBLE_EQ(job.workload.spr_op, 0.07);
  EXPECT_EQ(job.workload.spr_cs, 65536u);
  EXPECT_TRUE(validate(job).empty());
}

TEST(SprandomOptions, OverProvisioningOutsideZeroToOneIsRefused) {
  for (const char* bad : {"0", "1", "1.5", "-0.1", "abc", "0.1x"}) {
    JobSpec job;
    try {
      apply_option(job, "spr_op", bad, SourcePos{"j.fio", 4});
      ADD_FAILURE() << "spr_op=" << bad << " was accepted";
    } catch (const UserError& e) {
      EXPECT_THAT(e.what(), HasSubstr("j.fio:4")) << bad;
      EXPECT_THAT(e.what(), HasSubstr(std::string("spr_op=") + bad)) << bad;
    }
  }
}

TEST(SprandomOptions, ZeroRegionsIsRefused) {
  JobSpec job;
  EXPECT_THROW(apply_option(job, "spr_num_regions", "0", SourcePos{}), UserError);
  EXPECT_THROW(apply_option(job, "spr_num_regions", "-1", SourcePos{}), UserError);
}

TEST(SprandomOptions, NeedsRandomWrites) {
  for (const char* rw : {"write", "randread", "randtrim", "rw"}) {
    const auto errors = sprandom_errors(testing::job_with({{"rw", rw}, {"sprandom", "1"}}), "sprandom");
    ASSERT_EQ(errors.size(), 1u) << rw;
    EXPECT_THAT(errors[0].message, HasSubstr("rw=randwrite or rw=randrw")) << rw;
  }
  EXPECT_TRUE(sprandom_errors(testing::job_with({{"rw", "randrw"}, {"sprandom", "1"}}), "sprandom").empty());
}

TEST(SprandomOptions, AnotherRandomGeneratorIsAnError) {
  const JobSpec job = testing::job_with({{"rw", "randwrite"}, {"sprandom", "1"}, {"random_generator", "tausworthe"}});
  const auto errors = sprandom_errors(job, "random_generator");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_THAT(errors[0].message, HasSubstr("random_generator=lfsr"));
  EXPECT_TRUE(sprandom_errors(testing::job_with({{"rw", "randwrite"}, {"sprandom", "1"}, {"random_generator", "lfsr"}}),
                              "random_generator")
                  .empty());
}

TEST(SprandomOptions, NoRandomMapZeroIsAnError) {
  const auto errors =
      sprandom_errors(testing::job_with({{"rw", "randwrite"}, {"sprandom", "1"}, {"norandommap", "0"}}), "norandommap");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_THAT(errors[0].message, HasSubstr("norandommap=1"));
}

TEST(SprandomOptions, OneFileOnly) {
  EXPECT_EQ(
      sprandom_errors(testing::job_with({{"rw", "randwrite"}, {"sprandom", "1"}, {"nrfiles", "2"}}), "sprandom").size(),
      1u);
  EXPECT_EQ(
      sprandom_errors(testing::job_with({{"rw", "randwrite"}, {"sprandom", "1"}, {"filename", "a:b"}}), "sprandom")
          .size(),
      1u);
}

TEST(SprandomOptions, RegionOptionsWithoutSprandomWarn) {
  const JobSpec job = testing::job_with({{"rw", "randwrite"}, {"spr_op", "0.2"}});
  const auto problems = validate(job);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].option, "spr_op");
  EXPECT_EQ(problems[0].severity, Problem::Severity::kWarning);
}

}  // namespace
}  // namespace sluice
