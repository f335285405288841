// fio 3.33's statistics layout and sluice's results written into it.
#include "fionet/thread_stat.h"

#include <gtest/gtest.h>

#include "fionet/bytes.h"
#include "stats/latency_histogram.h"

namespace sluice::fionet {
namespace {

// offsetof() of fio 3.33's struct thread_stat as gcc lays it out on x86_64 (checked against its stat.h).
TEST(FioThreadStat, OffsetsAreFios) {
  EXPECT_EQ(ts::kError, 256u);
  EXPECT_EQ(ts::kDescription, 272u);
  EXPECT_EQ(ts::kSyncStat, 544u);
  EXPECT_EQ(ts::kClatStat, 600u);
  EXPECT_EQ(ts::kIopsStat, 1272u);
  EXPECT_EQ(ts::kUsrTime, 1440u);
  EXPECT_EQ(ts::kPercentilePrecision, 1496u);
  EXPECT_EQ(ts::kPercentileList, 1504u);
  EXPECT_EQ(ts::kIoUMap, 1824u);
  EXPECT_EQ(ts::kIoULatN, 1992u);
  EXPECT_EQ(ts::kIoUPlat, 2248u);
  EXPECT_EQ(ts::kIoUSyncPlat, 135880u);
  EXPECT_EQ(ts::kTotalIoU, 150728u);
  EXPECT_EQ(ts::kIoBytes, 150824u);
  EXPECT_EQ(ts::kTotalRunTime, 150872u);
  EXPECT_EQ(ts::kContinueOnError, 150880u);
  EXPECT_EQ(ts::kBlockInfo, 150912u);
  EXPECT_EQ(ts::kKbBase, 183680u);
  EXPECT_EQ(ts::kLatencyTarget, 183696u);
  EXPECT_EQ(ts::kSigFigs, 183728u);
  EXPECT_EQ(ts::kSsLimit, 183748u);
  EXPECT_EQ(ts::kIoprio, 183812u);
  EXPECT_EQ(ts::kClatPrioOffset, 183832u);
  EXPECT_EQ(ts::kCacheMiss, 183876u);
  EXPECT_EQ(ts::kThreadStatBytes, 183888u);
  EXPECT_EQ(ts::kTsPayloadBytes, 184056u);
}

TEST(FioThreadStat, PlatIndexIsFios) {
  EXPECT_EQ(fio_plat_index(0), 0u);
  EXPECT_EQ(fio_plat_index(127), 127u);
  EXPECT_EQ(fio_plat_index(128), 128u);
  EXPECT_EQ(fio_plat_index(129), 128u);  // width 2 from 128
  EXPECT_EQ(fio_plat_index(255), 191u);
  EXPECT_EQ(fio_plat_index(256), 192u);
  EXPECT_EQ(fio_plat_index(1ull << 40), ts::kPlatBuckets - 1);  // beyond ~17 s: the last bucket
}

// Every bucket of sluice's histogram lies inside one of fio's, so counts move over exactly.
TEST(FioThreadStat, SluiceBucketsFitInsideFios) {
  for (int b = 0; b < LatencyHistogram::kNumBuckets; ++b) {
    const std::uint64_t low = LatencyHistogram::bucket_low(b), high = LatencyHistogram::bucket_high(b);
    if (fio_plat_index(low) == ts::kPlatBuckets - 1) break;
    ASSERT_EQ(fio_plat_index(low), fio_plat_index(high)) << "bucket " << b << " [" << low << ", " << high << "]";
  }
}

TEST(FioThreadStat, ResultGoesIntoItsFields) {
  report::ReportedJob entry;
  JobResult& job = entry.job;
  job.name = "seqread";
  job.groupid = 2;
  job.runtime_ns = 2'000'000'000;
  entry.summed_runtime_ns = job.runtime_ns;
  DirectionStats& read = job.dirs[0];
  read.ios = 1000;
  read.bytes = 1000 * 4096;
  for (int i = 0; i < 1000; ++i) read.clat.record(1000 + static_cast<std::uint64_t>(i));
  read.bw_samples.add(2048.0 * 1024);
  PerDirection<report::GroupDirectionTotals> totals{};
  totals[0].active = true;
  totals[0].io_bytes = read.bytes;
  totals[0].max_run_ms = totals[0].min_run_ms = 2000;
  const std::vector<std::uint8_t> out = encode_thread_stat(entry, totals, {3, 42});
  ASSERT_EQ(out.size(), ts::kTsPayloadBytes);
  const std::uint8_t* p = out.data();
  EXPECT_EQ(get_text(p, ts::kName, 128), "seqread");
  EXPECT_EQ(get_u32(p, ts::kThreadNumber), 3u);
  EXPECT_EQ(get_u32(p, ts::kGroupId), 2u);
  EXPECT_EQ(get_u32(p, ts::kPid), 42u);
  EXPECT_EQ(get_u64(p, ts::kClatStat + 16), 1000u);          // samples
  EXPECT_EQ(get_u64(p, ts::kClatStat + 8), 1000u);           // min
  EXPECT_EQ(get_u64(p, ts::kClatStat + 0), 1999u);           // max
  EXPECT_DOUBLE_EQ(get_f64(p, ts::kClatStat + 24), 1499.5);  // mean
  EXPECT_DOUBLE_EQ(get_f64(p, ts::kBwStat + 24), 2048.0);    // KiB/s
  std::uint64_t plat_total = 0;
  for (std::size_t i = 0; i < ts::kPlatBuckets; ++i)
    plat_total += get_u64(p, ts::kIoUPlat + (ts::kDirs + 0) * ts::kPlatBuckets * 8 + i * 8);
  EXPECT_EQ(plat_total, 1000u);  // clat of reads: every sample in fio's buckets
  EXPECT_EQ(get_u64(p, ts::kTotalIoU), 1000u);
  EXPECT_EQ(get_u64(p, ts::kIoBytes), 1000u * 4096);
  EXPECT_EQ(get_u64(p, ts::kRuntime), 2000u);
  EXPECT_EQ(get_u64(p, ts::kIoULatU + 8 * 0), 1000u);  // 1.0-2.0 us: fio's "2" us range
  EXPECT_EQ(get_u32(p, ts::kKbBase), 1024u);
  EXPECT_EQ(get_u64(p, ts::kThreadStatBytes + ts::kGsIoBytes), 1000u * 4096);
  EXPECT_EQ(get_u64(p, ts::kThreadStatBytes + ts::kGsMinBw + 8), ~0ull);  // writes idle: fio's "not set"
  EXPECT_EQ(get_u32(p, ts::kThreadStatBytes + ts::kGsGroupId), 2u);
}

}  // namespace
}  // namespace sluice::fionet
