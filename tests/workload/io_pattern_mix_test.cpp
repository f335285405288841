#include <gtest/gtest.h>

#include "job/job_spec.h"
#include "workload/io_pattern.h"
#include "workload_test_helpers.h"

namespace sluice {
namespace {

using testing::drain;
using testing::job_for;

TEST(IoPatternMix, RwmixreadSeventyGivesSeventyPercentReads) {
  JobSpec job = job_for(RwMode::kRandRW);
  job.workload.rwmixread = 70;
  job.time.time_based = true;
  IoPattern pattern(job, {{0, 1 << 20}}, 1);
  auto ios = drain(pattern, 100'000);
  double reads = 0;
  for (const auto& io : ios) reads += io.direction == Direction::kRead;
  EXPECT_NEAR(reads / static_cast<double>(ios.size()), 0.70, 0.01);
}

TEST(IoPatternMix, RwmixreadDoesNotChangeTheOffsetSequence) {
  auto offsets = [](std::uint32_t rwmixread) {
    JobSpec job = job_for(RwMode::kRandRW);
    job.workload.rwmixread = rwmixread;
    job.workload.norandommap = true;
    job.time.time_based = true;
    IoPattern pattern(job, {{0, 1 << 30}}, 9);
    std::vector<std::uint64_t> result;
    for (const auto& io : drain(pattern, 1000)) result.push_back(io.offset);
    return result;
  };
  EXPECT_EQ(offsets(30), offsets(70));
}

TEST(IoPatternMix, SameSeedReproducesTheSequence) {
  JobSpec job = job_for(RwMode::kRandRW);
  job.workload.bssplit[0] = {{4096, 50}, {65536, 50}};
  IoPattern first(job, {{0, 8 << 20}}, 1234);
  IoPattern second(job, {{0, 8 << 20}}, 1234);
  auto a = drain(first);
  auto b = drain(second);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i].offset, b[i].offset);
    ASSERT_EQ(a[i].length, b[i].length);
    ASSERT_EQ(a[i].direction, b[i].direction);
  }
}

TEST(IoPatternMix, DifferentJobSeedsDiffer) {
  JobSpec job = job_for(RwMode::kRandRead);
  // The caller passes randseed + jobnum; neighbouring seeds must give unrelated sequences.
  IoPattern first(job, {{0, 8 << 20}}, job.workload.randseed + 0);
  IoPattern second(job, {{0, 8 << 20}}, job.workload.randseed + 1);
  auto a = drain(first, 100);
  auto b = drain(second, 100);
  int same = 0;
  for (std::size_t i = 0; i < a.size(); ++i) same += a[i].offset == b[i].offset;
  EXPECT_LT(same, 5);
}

TEST(IoPatternMix, TrimModesIssueTrims) {
  IoPattern pattern(job_for(RwMode::kRandTrim), {{0, 1 << 20}}, 1);
  auto ios = drain(pattern);
  ASSERT_EQ(ios.size(), 256u);
  for (const auto& io : ios) EXPECT_EQ(io.direction, Direction::kTrim);
}

}  // namespace
}  // namespace sluice
