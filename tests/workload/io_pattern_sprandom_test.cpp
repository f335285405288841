// IoPattern with sprandom: the budget is the physical capacity whatever io_size or loops say (fio sets io_size
// to it and ends the job when the plan is written; time_based runs the plan to its end and one write more), offsets
// stay in the job's region of the file, randrw's reads take blocks from the same LFSR, and a plan that cannot run is
// refused with its option.
#include <gtest/gtest.h>

#include <set>

#include "common/error.h"
#include "job/job_spec.h"
#include "workload/io_pattern.h"
#include "workload/sprandom.h"
#include "workload_test_helpers.h"

namespace sluice {
namespace {

using testing::drain;
using testing::job_for;
using testing::kMiB;
using testing::total_bytes;

JobSpec sprandom_job(RwMode rw) {
  JobSpec job = job_for(rw);
  job.workload.sprandom = true;
  return job;
}

// Writes of one seed: inside the region, at most the physical capacity, and every block unless the repeats
// used the budget up first (as in fio).
void check_physical_budget(std::uint64_t seed) {
  const FileRegion region{4 * kMiB, 16 * kMiB};
  const std::uint64_t physical = sprandom_physical_bytes(16 * kMiB, 0.15, 4096);
  IoPattern pattern(sprandom_job(RwMode::kRandWrite), {region}, seed);
  EXPECT_EQ(pattern.planned_bytes(), physical);
  const auto ios = drain(pattern);
  std::set<std::uint64_t> offsets;
  for (const NextIo& io : ios) {
    ASSERT_EQ(io.direction, Direction::kWrite);
    ASSERT_GE(io.offset, region.start);
    ASSERT_LE(io.offset + io.length, region.start + region.length);
    offsets.insert(io.offset);
  }
  EXPECT_LE(total_bytes(ios), physical) << seed;
  EXPECT_GT(total_bytes(ios), physical - physical / 50) << seed;
  if (total_bytes(ios) < physical) {
    EXPECT_EQ(offsets.size(), 4096u) << seed;
  } else {
    EXPECT_GT(offsets.size(), 4096u - 82) << seed;  // a few standard deviations of the repeats (~22)
  }
}

TEST(IoPatternSprandom, WritesAtMostThePhysicalCapacityInTheRegion) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) check_physical_budget(seed);
}

TEST(IoPatternSprandom, IoSizeAndLoopsDoNotExtendIt) {
  const FileRegion region{0, 8 * kMiB};
  const std::uint64_t reference = total_bytes([&] {
    IoPattern pattern(sprandom_job(RwMode::kRandWrite), {region}, 5);
    return drain(pattern);
  }());
  JobSpec job = sprandom_job(RwMode::kRandWrite);
  job.time.io_size = 1 * kMiB;
  job.time.loops = 3;
  IoPattern pattern(job, {region}, 5);
  EXPECT_EQ(total_bytes(drain(pattern, 100'000)), reference);
}

// fio 3.42 under time_based: the plan runs to its end (no budget); there fio resets the LFSR, asks once more
// and ends the job after whatever that gives. One region over 8 MiB: the LFSR runs out first (2,048 blocks,
// the region holds 2,356), so one write more, the reset LFSR's first block (no repeat is due then).
TEST(IoPatternSprandom, TimeBasedWritesOneBlockMoreWhenTheLfsrEndedThePlan) {
  const FileRegion region{0, 8 * kMiB};
  JobSpec job = sprandom_job(RwMode::kRandWrite);
  job.workload.spr_num_regions = 1;
  IoPattern sized(job, {region}, 5);
  const auto reference = drain(sized);
  ASSERT_EQ(reference.size(), 2048u) << "the LFSR ends the plan";
  job.time.time_based = true;
  IoPattern timed(job, {region}, 5);
  EXPECT_EQ(timed.planned_bytes(), sized.planned_bytes());
  const auto ios = drain(timed, 100'000);
  ASSERT_EQ(ios.size(), reference.size() + 1);
  for (std::size_t i = 0; i < reference.size(); ++i) ASSERT_EQ(ios[i].offset, reference[i].offset) << i;
  EXPECT_EQ(ios.back().offset, reference.front().offset) << "the LFSR's first block again";
  NextIo more;
  EXPECT_FALSE(timed.next(more)) << "the job ends after it";
}

// 100 regions over 8 MiB: the region after the last (23 writes) fills before the LFSR runs out, so the plan
// ends by its regions, and fio's second ask gives nothing: time_based writes what size-based does, no more.
TEST(IoPatternSprandom, TimeBasedAddsNothingWhenTheRegionsEndedThePlan) {
  const FileRegion region{0, 8 * kMiB};
  JobSpec job = sprandom_job(RwMode::kRandWrite);
  IoPattern sized(job, {region}, 5);
  const auto reference = drain(sized);
  ASSERT_EQ(reference.size(), 101u * 23u) << "every region and the one after the last full";
  job.time.time_based = true;
  IoPattern timed(job, {region}, 5);
  EXPECT_EQ(drain(timed, 100'000).size(), reference.size());
}

TEST(IoPatternSprandom, ReadsOfRandrwShareTheLfsr) {
  JobSpec job = sprandom_job(RwMode::kRandRW);
  IoPattern pattern(job, {{0, 8 * kMiB}}, 3);
  const auto ios = drain(pattern);
  std::set<std::uint64_t> read_offsets, written;
  std::size_t reads = 0;
  for (const NextIo& io : ios) {
    if (io.direction == Direction::kRead) {
      ++reads;
      read_offsets.insert(io.offset);
    } else {
      written.insert(io.offset);
    }
  }
  EXPECT_GT(reads, 500u);
  EXPECT_EQ(read_offsets.size(), reads) << "each LFSR block once";
  // Reads and new writes split the blocks between them; every block is read or written.
  std::set<std::uint64_t> all = written;
  all.insert(read_offsets.begin(), read_offsets.end());
  EXPECT_EQ(all.size(), 2048u);
}

TEST(IoPatternSprandom, ACacheLargerThanARegionIsRefused) {
  JobSpec job = sprandom_job(RwMode::kRandWrite);
  job.workload.spr_cs = 1 * kMiB;
  job.option_pos["spr_cs"] = SourcePos{"p.fio", 9};
  try {
    IoPattern pattern(job, {{0, 16 * kMiB}}, 1);
    ADD_FAILURE() << "accepted";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("p.fio:9"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("spr_cs"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace sluice
