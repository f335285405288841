#include "workload/rmw_chains.h"

#include <gtest/gtest.h>

#include "job/job_spec.h"

namespace sluice {
namespace {

NextIo read_at(int file, std::uint64_t offset, std::uint32_t length = 4096) {
  return NextIo{Direction::kRead, file, offset, length};
}

TEST(RmwChains, NoWriteIsDueBeforeAReadCompletes) {
  RmwChains chains(4);
  std::uint32_t chain = 99;
  NextIo write;
  EXPECT_FALSE(chains.take_write(chain, write));
  EXPECT_EQ(chains.writes_due(), 0u);
}

TEST(RmwChains, ACompletedReadMakesTheWriteOfTheSameBlockDue) {
  RmwChains chains(1);
  chains.read_done(0, read_at(2, 81920, 8192));
  std::uint32_t chain = 99;
  NextIo write;
  ASSERT_TRUE(chains.take_write(chain, write));
  EXPECT_EQ(chain, 0u);
  EXPECT_EQ(write.direction, Direction::kWrite);
  EXPECT_EQ(write.file_index, 2);
  EXPECT_EQ(write.offset, 81920u);
  EXPECT_EQ(write.length, 8192u);
  EXPECT_FALSE(chains.take_write(chain, write));  // one write per read
}

TEST(RmwChains, ChainsKeepTheirOwnBlocks) {
  RmwChains chains(3);
  chains.read_done(2, read_at(0, 3 * 4096));
  chains.read_done(0, read_at(0, 7 * 4096));
  chains.read_done(1, read_at(1, 5 * 4096));
  std::uint32_t chain = 0;
  NextIo write;
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(chains.take_write(chain, write));
    const std::uint64_t expected = chain == 2 ? 3 * 4096 : chain == 0 ? 7 * 4096 : 5 * 4096;
    EXPECT_EQ(write.offset, expected) << "chain " << chain;
    EXPECT_EQ(write.file_index, chain == 1 ? 1 : 0);
  }
}

TEST(RmwChains, DueWritesAreTakenOldestFirst) {
  RmwChains chains(3);
  chains.read_done(1, read_at(0, 0));
  chains.read_done(2, read_at(0, 4096));
  chains.read_done(0, read_at(0, 8192));
  std::uint32_t chain = 0;
  NextIo write;
  std::vector<std::uint32_t> order;
  while (chains.take_write(chain, write)) order.push_back(chain);
  EXPECT_EQ(order, (std::vector<std::uint32_t>{1, 2, 0}));
}

TEST(RmwChains, RingWrapsOverManyTransactions) {
  RmwChains chains(2);
  std::uint32_t chain = 0;
  NextIo write;
  for (std::uint64_t t = 0; t < 1000; ++t) {
    chains.read_done(static_cast<std::uint32_t>(t % 2), read_at(0, t * 4096));
    if (t % 2 == 1) {
      ASSERT_TRUE(chains.take_write(chain, write));
      EXPECT_EQ(write.offset, (t - 1) * 4096);
      ASSERT_TRUE(chains.take_write(chain, write));
      EXPECT_EQ(write.offset, t * 4096);
    }
  }
  EXPECT_EQ(chains.writes_due(), 0u);
}

TEST(RmwChains, PatternSpecReadsRandomly) {
  JobSpec job;
  job.workload.rw = RwMode::kRandRmw;
  job.workload.bs = {8192, 8192, 8192};
  const JobSpec reads = RmwChains::pattern_spec(job);
  EXPECT_EQ(reads.workload.rw, RwMode::kRandRead);
  EXPECT_EQ(reads.workload.bs[0], 8192u);
  job.workload.rw = RwMode::kWrite;
  EXPECT_EQ(RmwChains::pattern_spec(job).workload.rw, RwMode::kWrite);  // other modes untouched
}

TEST(RmwChains, PatternSpecOfTrimwriteTrims) {
  JobSpec job;
  job.workload.rw = RwMode::kTrimWrite;
  EXPECT_EQ(RmwChains::pattern_spec(job).workload.rw, RwMode::kTrim);
  job.workload.rw = RwMode::kRandTrimWrite;
  EXPECT_EQ(RmwChains::pattern_spec(job).workload.rw, RwMode::kRandTrim);
  EXPECT_TRUE(job.is_chained() && job.does_trims() && job.does_writes() && !job.does_reads() && job.is_random());
}

TEST(RmwChains, ReadPatternCoversEachBlockOncePerPass) {
  JobSpec job;
  job.workload.rw = RwMode::kRandRmw;
  IoPattern pattern(RmwChains::pattern_spec(job), {{0, 64 * 4096}}, 7);
  std::vector<int> seen(64, 0);
  NextIo io;
  while (pattern.next(io)) {
    EXPECT_EQ(io.direction, Direction::kRead);
    seen[io.offset / 4096]++;
  }
  for (int count : seen) EXPECT_EQ(count, 1);
}

}  // namespace
}  // namespace sluice
