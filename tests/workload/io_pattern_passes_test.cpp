// starts_pass: the first io of every later pass over a file says so (IoLoop then drops the file's cached
// pages, as fio does at each time_based wrap and each loop), never the first pass's.
#include <gtest/gtest.h>

#include <vector>

#include "job/job_spec.h"
#include "workload/io_pattern.h"
#include "workload_test_helpers.h"

namespace sluice {
namespace {

using testing::drain;
using testing::job_for;

std::vector<std::size_t> pass_starts(const JobSpec& job, std::size_t limit = 10'000'000) {
  IoPattern pattern(job, {{0, 4 * 4096}}, 3);
  std::vector<std::size_t> at;
  const auto ios = drain(pattern, limit);
  for (std::size_t i = 0; i < ios.size(); ++i) {
    if (ios[i].starts_pass) at.push_back(i);
  }
  return at;
}

TEST(IoPatternPasses, OnePassHasNoStart) {
  EXPECT_TRUE(pass_starts(job_for(RwMode::kRandRead)).empty());
  EXPECT_TRUE(pass_starts(job_for(RwMode::kRead)).empty());
}

TEST(IoPatternPasses, LoopsStartEachLaterPass) {
  JobSpec job = job_for(RwMode::kRandRead);
  job.time.loops = 3;
  EXPECT_EQ(pass_starts(job), (std::vector<std::size_t>{4, 8}));
}

TEST(IoPatternPasses, TimeBasedWrapsStartPasses) {
  for (RwMode rw : {RwMode::kRead, RwMode::kRandRead}) {
    JobSpec job = job_for(rw);
    job.time.time_based = true;
    EXPECT_EQ(pass_starts(job, 12), (std::vector<std::size_t>{4, 8})) << static_cast<int>(rw);
  }
}

}  // namespace
}  // namespace sluice
