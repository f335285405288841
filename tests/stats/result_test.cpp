#include "stats/result.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace sluice {
namespace {

constexpr int kRead = index_of(Direction::kRead);
constexpr int kWrite = index_of(Direction::kWrite);

JobResult job(std::uint64_t ios, std::uint64_t bs, std::uint64_t start_ns, std::uint64_t runtime_ns) {
  JobResult r;
  r.name = "job";
  r.dirs[kRead].ios = ios;
  r.dirs[kRead].bytes = ios * bs;
  for (std::uint64_t i = 0; i < ios; ++i) r.dirs[kRead].clat.record(1000 + i);
  r.start_ns = start_ns;
  r.runtime_ns = runtime_ns;
  r.end_ns = start_ns + runtime_ns;
  return r;
}

TEST(IodepthDistribution, LevelBucketsFollowFio) {
  const std::pair<std::uint32_t, int> cases[] = {{0, 0},  {1, 0},  {2, 1},  {3, 1},  {4, 2},  {7, 2},  {8, 3},
                                                 {15, 3}, {16, 4}, {31, 4}, {32, 5}, {63, 5}, {64, 6}, {100000, 6}};
  for (auto [depth, bucket] : cases) EXPECT_EQ(IodepthDistribution::level_bucket(depth), bucket) << depth;
}

TEST(IodepthDistribution, BatchBucketsFollowFio) {
  const std::pair<std::uint32_t, int> cases[] = {{0, 0},  {1, 1},  {4, 1},  {5, 2},  {8, 2},  {9, 3},   {16, 3},
                                                 {17, 4}, {32, 4}, {33, 5}, {64, 5}, {65, 6}, {4096, 6}};
  for (auto [count, bucket] : cases) EXPECT_EQ(IodepthDistribution::batch_bucket(count), bucket) << count;
}

TEST(IodepthDistribution, MergeAdds) {
  IodepthDistribution a, b;
  a.level[1] = 3;
  b.level[1] = 4;
  b.submit[6] = 2;
  a.total_submit_calls = 1;
  b.total_complete_calls = 5;
  a.merge(b);
  EXPECT_EQ(a.level[1], 7u);
  EXPECT_EQ(a.submit[6], 2u);
  EXPECT_EQ(a.total_submit_calls, 1u);
  EXPECT_EQ(a.total_complete_calls, 5u);
}

TEST(CpuUsage, MergeAdds) {
  CpuUsage a{1.5, 0.5, 10, 1, 2}, b{0.5, 0.25, 5, 0, 3};
  a.merge(b);
  EXPECT_DOUBLE_EQ(a.user_seconds, 2.0);
  EXPECT_DOUBLE_EQ(a.system_seconds, 0.75);
  EXPECT_EQ(a.context_switches, 15u);
  EXPECT_EQ(a.minor_faults, 5u);
}

TEST(JobResult, TotalIosSumsDirections) {
  JobResult r;
  r.dirs[kRead].ios = 3;
  r.dirs[kWrite].ios = 4;
  EXPECT_EQ(r.total_ios(), 7u);
}

TEST(JobResult, MergeAddsCountsAndTakesWallTimes) {
  JobResult a = job(1000, 4096, 500, 1'000'000'000);
  JobResult b = job(3000, 4096, 400, 2'000'000'000);
  a.merge(b);
  EXPECT_EQ(a.dirs[kRead].ios, 4000u);
  EXPECT_EQ(a.dirs[kRead].bytes, 4000u * 4096);
  EXPECT_EQ(a.dirs[kRead].clat.count(), 4000u);
  EXPECT_EQ(a.dirs[kRead].clat.histogram.total(), 4000u);
  EXPECT_EQ(a.runtime_ns, 2'000'000'000u);
  EXPECT_EQ(a.start_ns, 400u);
  EXPECT_EQ(a.end_ns, 400u + 2'000'000'000u);
  EXPECT_EQ(a.merged_jobs, 2u);
}

TEST(JobResult, MergeKeepsFirstErrorAndOrsFlags) {
  JobResult a, b, c;
  b.error = 5;
  b.error_message = "EIO";
  b.interrupted = true;
  c.error = 28;
  a.merge(b);
  a.merge(c);
  EXPECT_EQ(a.error, 5);
  EXPECT_EQ(a.error_message, "EIO");
  EXPECT_TRUE(a.interrupted);
  EXPECT_EQ(a.merged_jobs, 3u);
}

TEST(JobResult, MergeSumsSeries) {
  JobResult a, b;
  PerDirection<IntervalSample> s{};
  s[kRead].ops = 2;
  a.series.append(s);
  b.series.append(s);
  b.series.append(s);
  a.merge(b);
  ASSERT_EQ(a.series.size(), 2u);
  EXPECT_EQ(a.series.at(0)[kRead].ops, 4u);
}

TEST(GroupResult, AggregateTotalsAndRateOverMaxRuntime) {
  GroupResult g;
  g.groupid = 3;
  g.jobs.push_back(job(1000, 4096, 100, 1'000'000'000));
  g.jobs.push_back(job(3000, 8192, 100, 2'000'000'000));
  g.jobs[1].name = "second";
  const JobResult total = g.aggregate();
  EXPECT_EQ(total.name, "job");
  EXPECT_EQ(total.groupid, 3);
  EXPECT_EQ(total.total_ios(), 4000u);
  EXPECT_EQ(total.dirs[kRead].bytes, 1000u * 4096 + 3000u * 8192);
  EXPECT_EQ(total.runtime_ns, 2'000'000'000u);
  const double iops = static_cast<double>(total.total_ios()) / (static_cast<double>(total.runtime_ns) / 1e9);
  EXPECT_DOUBLE_EQ(iops, 2000.0);  // total / max runtime, not 1000 + 1500
}

TEST(GroupResult, AggregateOfNoJobsIsEmpty) {
  GroupResult g;
  EXPECT_EQ(g.aggregate().total_ios(), 0u);
}

JobResult full_job() {
  JobResult r = job(50, 4096, 123, 456);
  r.description = "desc";
  r.jobnum = 2;
  r.groupid = 1;
  r.error = 5;
  r.error_message = "boom";
  r.merged_jobs = 4;
  r.dirs[kWrite].ios = 9;
  r.dirs[kWrite].short_ios = 1;
  r.dirs[kWrite].errors = 2;
  r.dirs[kWrite].slat.record(77);
  r.dirs[kWrite].lat.record(1ull << 50);
  r.dirs[kRead].iops_samples.add(100);
  r.dirs[kRead].bw_samples.add(409600);
  r.sync.ios = 3;
  r.sync.lat.record(5000);
  r.depth.level[2] = 8;
  r.depth.complete[1] = 4;
  r.depth.total_submit_calls = 9;
  r.cpu = {1.25, 0.5, 42, 1, 7};
  PerDirection<IntervalSample> s{};
  s[kRead] = {10, 40960, 10000, 1500};
  r.series.append(s);
  r.interrupted = true;
  r.stopped_by_max_latency = true;
  r.settings.rw = "randrw";
  r.settings.ioengine = "io_uring";
  r.settings.iodepth = 32;
  r.settings.bs_max = {8192, 65536, 4096};
  r.settings.percentile_list = {50, 99.5};
  r.settings.lat_percentiles = true;
  r.settings.kb_base = 1000;
  r.settings.time_based = true;
  r.options = {{"rw", "randrw"}, {"bs", "4k-64k"}};
  return r;
}

TEST(JobResult, JsonRoundTripPreservesEverything) {
  const JobResult r = full_job();
  const nlohmann::json j = r.to_json();
  const JobResult back = JobResult::from_json(nlohmann::json::parse(j.dump()));
  EXPECT_EQ(back.to_json(), j);
  EXPECT_EQ(back.settings.ioengine, "io_uring");
  EXPECT_EQ(back.settings.bs_max[1], 65536u);
  EXPECT_EQ(back.options.at("bs"), "4k-64k");
  EXPECT_EQ(back.dirs[kWrite].lat.histogram.overflow(), 1u);
  EXPECT_EQ(back.dirs[kRead].clat.histogram.percentile(50), r.dirs[kRead].clat.histogram.percentile(50));
  EXPECT_EQ(back.series.at(0)[kRead].lat_p99_ns, 1500u);
}

// fio's sum_clat_prio_stats: priorities add by value; a job without a split counts all its ios for its own
// priority once the other job splits (or the two jobs' priorities differ).
TEST(JobResult, MergeAddsPrioritiesByValue) {
  JobResult a = job(3, 4096, 1, 10);
  a.dirs[kRead].prios = {{0, {}}, {0x2000, {}}};
  a.dirs[kRead].prios[0].latency.record(100);
  a.dirs[kRead].prios[1].latency.record(200);
  a.dirs[kRead].prios[1].latency.record(300);
  JobResult b = job(2, 4096, 1, 10);  // no split: both ios at its priority
  b.ioprio = 0x2000;
  a.merge(b);
  ASSERT_EQ(a.dirs[kRead].prios.size(), 2u);
  EXPECT_EQ(a.dirs[kRead].prios[0].latency.count(), 1u);
  EXPECT_EQ(a.dirs[kRead].prios[1].latency.count(), 4u);

  JobResult c = job(2, 4096, 1, 10);
  c.ioprio = 0x6000;
  JobResult d = job(1, 4096, 1, 10);  // priority 0: differs, so the merge splits
  c.merge(d);
  ASSERT_EQ(c.dirs[kRead].prios.size(), 2u);
  EXPECT_EQ(c.dirs[kRead].prios[0].ioprio, 0x6000);
  EXPECT_EQ(c.dirs[kRead].prios[0].latency.count(), 2u);
  EXPECT_EQ(c.dirs[kRead].prios[1].latency.count(), 1u);

  JobResult e = job(2, 4096, 1, 10);
  e.merge(job(2, 4096, 1, 10));  // the same priority, no split anywhere: none after the merge either
  EXPECT_TRUE(e.dirs[kRead].prios.empty());
}

TEST(JobResult, JsonRoundTripKeepsPriorities) {
  JobResult r = job(2, 4096, 1, 10);
  r.ioprio = 0x4007;
  r.dirs[kRead].prios = {{0x4007, {}}, {0x2001, {}}};
  r.dirs[kRead].prios[1].latency.record(5000);
  const JobResult back = JobResult::from_json(nlohmann::json::parse(r.to_json().dump()));
  EXPECT_EQ(back.ioprio, 0x4007);
  ASSERT_EQ(back.dirs[kRead].prios.size(), 2u);
  EXPECT_EQ(back.dirs[kRead].prios[1].ioprio, 0x2001);
  EXPECT_EQ(back.dirs[kRead].prios[1].latency.count(), 1u);
}

TEST(JobResult, JsonRoundTripOfDefault) {
  const JobResult r;
  const JobResult back = JobResult::from_json(nlohmann::json::parse(r.to_json().dump()));
  EXPECT_EQ(back.to_json(), r.to_json());
}

}  // namespace
}  // namespace sluice
