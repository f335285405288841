// sysbench fileio request generation and counting (suites/sysbench_requests.h), one request at a time.
#include "suites/sysbench_requests.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace sluice {
namespace {

SysbenchOptions options(SysbenchMode mode, std::uint64_t files, std::uint64_t total, std::uint64_t block) {
  SysbenchOptions o;
  o.mode = mode;
  o.file_num = files;
  o.total_size = total;
  o.block_size = block;
  return o;
}

// "W", "R", "F0" ...: the ops handed out, each completed at once.
std::string trace(SysbenchRequests& g, int n) {
  std::string s;
  for (int i = 0; i < n; ++i) {
    const SysbenchRequest r = g.next();
    switch (r.op) {
      case SysbenchOp::kRead:
        s += "R";
        break;
      case SysbenchOp::kWrite:
        s += "W";
        break;
      case SysbenchOp::kFsync:
        s += "F" + std::to_string(r.file);
        break;
      case SysbenchOp::kStop:
        return s + ".";
    }
    g.complete(r.op, r.length, 1000, 0);
  }
  return s;
}

TEST(SysbenchRequests, SequentialCursorIsSharedAndWrapsToFileZero) {
  SysbenchOptions o = options(SysbenchMode::kSeqrd, 2, 64 << 10, 16 << 10);
  SysbenchRequests g(o, 1);
  const std::vector<std::pair<std::uint32_t, std::uint64_t>> want = {
      {0, 0}, {0, 16 << 10}, {1, 0}, {1, 16 << 10}, {0, 0}};
  for (const auto& [file, offset] : want) {
    const SysbenchRequest r = g.next();
    EXPECT_EQ(r.op, SysbenchOp::kRead);
    EXPECT_EQ(r.file, file);
    EXPECT_EQ(r.offset, offset);
    EXPECT_EQ(r.length, 16u << 10);
  }
}

TEST(SysbenchRequests, MergedRequestsAreCutAtTheEndOfAFile) {
  SysbenchOptions o = options(SysbenchMode::kSeqrewr, 1, 40 << 10, 16 << 10);
  o.merged_requests = 2;
  o.fsync_freq = 0;
  SysbenchRequests g(o, 1);
  EXPECT_EQ(g.next().length, 32u << 10);
  const SysbenchRequest tail = g.next();
  EXPECT_EQ(tail.offset, 32u << 10);
  EXPECT_EQ(tail.length, 8u << 10);
  EXPECT_EQ(g.next().offset, 0u);
}

TEST(SysbenchRequests, PeriodicFsyncIsOneEventPerFileEveryFreqRequests) {
  SysbenchOptions o = options(SysbenchMode::kRndwr, 2, 64 << 10, 4096);
  o.fsync_freq = 3;
  SysbenchRequests g(o, 1);
  EXPECT_EQ(trace(g, 12), "WWWF0F1WWWF0F1WW");
  const SysbenchCounts c = g.totals();
  EXPECT_EQ(c.writes, 8u);
  EXPECT_EQ(c.fsyncs, 4u);
  EXPECT_EQ(c.events, 12u);
}

TEST(SysbenchRequests, ReadModesNeverFsync) {
  SysbenchOptions o = options(SysbenchMode::kRndrd, 4, 64 << 10, 4096);
  o.fsync_freq = 1;
  SysbenchRequests g(o, 1);
  EXPECT_EQ(trace(g, 6), "RRRRRR");
}

TEST(SysbenchRequests, EventsLimitCountsFsyncEvents) {
  SysbenchOptions o = options(SysbenchMode::kSeqwr, 2, 64 << 10, 4096);
  o.fsync_freq = 2;
  o.events = 5;
  SysbenchRequests g(o, 1);
  EXPECT_EQ(trace(g, 10), "WWF0F1W.");
}

TEST(SysbenchRequests, RndrwMixIsSteeredByCompletedCounts) {
  SysbenchOptions o = options(SysbenchMode::kRndrw, 4, 1 << 20, 4096);
  o.fsync_freq = 0;
  SysbenchRequests g(o, 7);
  // (reads+1)/(writes+1) < 1.5 reads, else writes: 1/1 R, 2/1 W, 2/2 R, 3/2 W, 3/3 R, 4/3 R, 5/3 W, ...
  EXPECT_EQ(trace(g, 10), "RWRWRRWRWR");
  trace(g, 990);
  const SysbenchCounts c = g.totals();
  EXPECT_EQ(c.reads + c.writes, 1000u);
  EXPECT_NEAR(static_cast<double>(c.reads) / static_cast<double>(c.writes), 1.5, 0.01);
}

TEST(SysbenchRequests, RndrwIsSteeredByTheAskingThreadsCounts) {
  SysbenchOptions o = options(SysbenchMode::kRndrw, 4, 1 << 20, 4096);
  o.fsync_freq = 0;
  o.threads = 2;
  SysbenchRequests g(o, 7);
  // Thread 0 completes two reads; thread 1 has done nothing, so its first request is a read all the same.
  for (int i = 0; i < 2; ++i) g.complete(SysbenchOp::kRead, 4096, 10, 0, 0);
  EXPECT_EQ(g.next(0).op, SysbenchOp::kWrite);  // (2+1)/(0+1) = 3 >= 1.5
  EXPECT_EQ(g.next(1).op, SysbenchOp::kRead);   // (0+1)/(0+1) = 1 < 1.5
}

TEST(SysbenchRequests, RandomOffsetsAreBlockAlignedAndCoverEveryFile) {
  SysbenchOptions o = options(SysbenchMode::kRndrd, 3, (3 << 20) + 3 * 1000, 16 << 10);  // files not a block multiple
  SysbenchRequests g(o, 3);
  std::vector<int> per_file(3, 0);
  const std::uint64_t file_size = o.file_size();
  for (int i = 0; i < 3000; ++i) {
    const SysbenchRequest r = g.next();
    ASSERT_LT(r.file, 3u);
    ASSERT_LT(r.offset, file_size);
    ASSERT_LE(r.offset + r.length, file_size);
    ASSERT_GT(r.length, 0u);
    // Global offset (file x file_size + offset) is a block multiple.
    ASSERT_EQ((r.file * file_size + r.offset) % o.block_size, 0u);
    ++per_file[r.file];
  }
  for (int n : per_file) EXPECT_NEAR(n, 1000, 150);
}

TEST(SysbenchRequests, SameSeedSameOffsets) {
  SysbenchOptions o = options(SysbenchMode::kRndwr, 8, 8 << 20, 4096);
  SysbenchRequests a(o, 42), b(o, 42), c(o, 43);
  bool differs = false;
  for (int i = 0; i < 50; ++i) {
    const SysbenchRequest ra = a.next(), rb = b.next(), rc = c.next();
    EXPECT_EQ(ra.offset, rb.offset);
    EXPECT_EQ(ra.file, rb.file);
    differs |= ra.offset != rc.offset || ra.file != rc.file;
  }
  EXPECT_TRUE(differs);
}

TEST(SysbenchRequests, InnerAndEndFsyncsCountAsFsyncsNotEvents) {
  SysbenchOptions o = options(SysbenchMode::kRndwr, 2, 64 << 10, 4096);
  o.fsync_all = true;
  normalise_sysbench_options(o);
  EXPECT_EQ(o.fsync_freq, 0u);
  EXPECT_FALSE(o.fsync_end);
  SysbenchRequests g(o, 1);
  for (int i = 0; i < 5; ++i) g.complete(g.next().op, 4096, 10, 1);
  g.count_end_fsyncs(2);
  const SysbenchCounts c = g.totals();
  EXPECT_EQ(c.writes, 5u);
  EXPECT_EQ(c.fsyncs, 7u);
  EXPECT_EQ(c.events, 5u);
  EXPECT_EQ(c.bytes_written, 5u * 4096);
}

TEST(SysbenchRequests, IntervalIsTheCountsSinceTheLastTake) {
  SysbenchOptions o = options(SysbenchMode::kRndrd, 2, 64 << 10, 4096);
  SysbenchRequests g(o, 1);
  trace(g, 3);
  SysbenchCounts c;
  LatencyHistogram h;
  g.take_interval(c, h);
  EXPECT_EQ(c.reads, 3u);
  EXPECT_EQ(h.total(), 3u);
  trace(g, 2);
  g.take_interval(c, h);
  EXPECT_EQ(c.reads, 2u);
  EXPECT_EQ(h.total(), 2u);
  EXPECT_EQ(g.totals().reads, 5u);
}

}  // namespace
}  // namespace sluice
