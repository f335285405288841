// Aggregation of per-rank results on synthetic ranks: exact windows, merged percentiles, skew, and the
// per-rank file names and time limit of an MPI run.
#include "mpi/aggregate.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "mpi/cluster_report.h"
#include "mpi/cluster_run.h"
#include "mpi/wearout_run.h"
#include "mpi/world.h"

namespace sluice::mpi {
namespace {

constexpr std::uint64_t kSecond = 1'000'000'000ull;

// A rank that ran one job from `start` (its own clock) for `seconds` 1 s intervals of `ops_per_second`
// reads of 4 KiB, each taking `latency_ns`.
RankReport synthetic_rank(int rank, std::uint64_t start, int seconds, std::uint64_t ops_per_second,
                          std::uint64_t latency_ns, std::int64_t offset_ns = 0) {
  JobResult job;
  job.name = "j";
  job.series = TimeSeries(kSecond);
  DirectionStats& read = job.dirs[index_of(Direction::kRead)];
  for (int s = 0; s < seconds; ++s) {
    PerDirection<IntervalSample> sample{};
    sample[index_of(Direction::kRead)] = {ops_per_second, ops_per_second * 4096, ops_per_second * latency_ns,
                                          latency_ns};
    job.series.append(sample);
    for (std::uint64_t i = 0; i < ops_per_second; ++i) read.lat.record(latency_ns);
  }
  read.ios = ops_per_second * static_cast<std::uint64_t>(seconds);
  read.bytes = read.ios * 4096;
  job.start_ns = start;
  job.runtime_ns = static_cast<std::uint64_t>(seconds) * kSecond;
  job.end_ns = start + job.runtime_ns;
  RankReport r;
  r.rank = rank;
  r.host = "host" + std::to_string(rank);
  r.clock.offset_ns = offset_ns;
  GroupResult group;
  group.jobs.push_back(job);
  r.groups.push_back(group);
  return r;
}

TEST(Aggregate, WindowAndAllActiveAreExactAndClockOffsetsAreApplied) {
  // Rank 1's clock reads 5 s more than rank 0's: its start at 7 s is rank 0's 2 s.
  const std::vector<RankReport> ranks = {synthetic_rank(0, 0, 10, 100, 1000),
                                         synthetic_rank(1, 7 * kSecond, 10, 200, 1000, 5 * kSecond)};
  const GroupAggregate g = aggregate_group(ranks, 0);
  ASSERT_EQ(g.hosts.size(), 2u);
  EXPECT_EQ(g.window.span_ns(), 12 * kSecond);
  EXPECT_DOUBLE_EQ(g.window.ios, 3000.0);
  EXPECT_DOUBLE_EQ(g.window.iops(), 250.0);
  // All active: 2 s -> 10 s; rank 0's seconds 2..9 (800 ios) and rank 1's 0..7 (1600 ios).
  EXPECT_EQ(g.all_active.span_ns(), 8 * kSecond);
  EXPECT_DOUBLE_EQ(g.all_active.ios, 2400.0);
  EXPECT_DOUBLE_EQ(g.all_active.iops(), 300.0);
  EXPECT_DOUBLE_EQ(g.all_active.bytes_per_second(), 300.0 * 4096);
  EXPECT_EQ(g.max_start_skew_ns, static_cast<std::int64_t>(2 * kSecond));
  EXPECT_EQ(g.hosts[0].start_skew_ns, 0);
  EXPECT_EQ(g.hosts[1].start_skew_ns, static_cast<std::int64_t>(2 * kSecond));
  EXPECT_EQ(g.hosts[0].end_skew_ns, static_cast<std::int64_t>(2 * kSecond));
  EXPECT_DOUBLE_EQ(g.hosts[1].own.iops(), 200.0);  // each host's own rate, over its own run
  EXPECT_EQ(g.all.total_ios(), 3000u);
  EXPECT_EQ(g.all.runtime_ns, 12 * kSecond);
}

TEST(Aggregate, AnIntervalCutByTheWindowCountsProRata) {
  const std::vector<RankReport> ranks = {synthetic_rank(0, 0, 4, 100, 1000),
                                         synthetic_rank(1, kSecond / 2, 4, 100, 1000)};
  const GroupAggregate g = aggregate_group(ranks, 0);
  // 0.5 s -> 4 s: rank 0 has 3.5 intervals inside, rank 1 3.5 as well.
  EXPECT_EQ(g.all_active.span_ns(), 3 * kSecond + kSecond / 2);
  EXPECT_DOUBLE_EQ(g.all_active.ios, 700.0);
}

TEST(Aggregate, TheAllClientsSeriesIsOnRankZerosClock) {
  // Rank 1 starts 0.5 s after rank 0 (its clock reads 3 s more): its seconds straddle rank 0's.
  const std::vector<RankReport> ranks = {synthetic_rank(0, 0, 2, 100, 1000),
                                         synthetic_rank(1, 3 * kSecond + kSecond / 2, 2, 60, 3000, 3 * kSecond)};
  const TimeSeries& series = aggregate_group(ranks, 0).all.series;
  ASSERT_EQ(series.size(), 3u);
  const auto read = [&series](std::size_t k) { return series.at(k)[index_of(Direction::kRead)]; };
  EXPECT_EQ(read(0).ops, 100u + 30u);        // rank 0's first second, half of rank 1's first
  EXPECT_EQ(read(1).ops, 100u + 30u + 30u);  // rank 0's second, the other half and half of rank 1's second
  EXPECT_EQ(read(2).ops, 30u);
  EXPECT_EQ(read(1).bytes, 160u * 4096);
  EXPECT_EQ(read(2).lat_sum_ns, 30u * 3000);
  EXPECT_EQ(read(0).lat_p99_ns, 3000u);  // the largest p99 of the samples a bin overlaps
  EXPECT_EQ(read(2).lat_p99_ns, 3000u);
  std::uint64_t total = 0;
  for (std::size_t k = 0; k < series.size(); ++k) total += read(k).ops;
  EXPECT_EQ(total, 320u);
}

TEST(HostDifferences, AKernelAndASchedulerThatDifferAreListedAndAHostNameIsNot) {
  const auto rank_with = [](int rank, const char* host, const char* kernel, const char* scheduler) {
    RankReport r;
    r.rank = rank;
    r.host = host;
    r.environment =
        nlohmann::json{
            {"host", host}, {"kernel_release", kernel}, {"devices", {{{"name", "vda"}, {"scheduler", scheduler}}}}}
            .dump();
    return r;
  };
  const std::vector<RankReport> same = {rank_with(0, "a", "6.1.0", "none"), rank_with(1, "b", "6.1.0", "none")};
  EXPECT_EQ(host_differences_text(same), "Hosts' environments: no differences from rank 0\n");
  const std::vector<RankReport> differ = {rank_with(0, "a", "6.1.0", "none"),
                                          rank_with(1, "b", "6.18.4", "mq-deadline")};
  const std::string text = host_differences_text(differ);
  EXPECT_NE(text.find("b (rank 1): kernel_release: 6.18.4 (rank 0: 6.1.0)"), std::string::npos) << text;
  EXPECT_NE(text.find("b (rank 1): device vda scheduler: mq-deadline (rank 0: none)"), std::string::npos) << text;
  EXPECT_EQ(text.find(": host:"), std::string::npos) << text;
  RankReport failed_first;
  failed_first.rank = 2;
  failed_first.host = "c";
  const std::string missing = host_differences_text({same[0], failed_first});
  EXPECT_NE(missing.find("c (rank 2): its environment was not captured"), std::string::npos) << missing;
  EXPECT_EQ(missing.find("kernel"), std::string::npos) << missing;
}

TEST(Aggregate, MergedP99OfDisjointDistributionsIsTheUnionsP99) {
  // Rank 0: 900 ios at 10 us; rank 1: 100 ios at 1 ms. Of the union, p99 (rank 990) is 1 ms and p50 10 us;
  // an average of the ranks' own p99s (10 us and 1 ms) would say 505 us.
  const std::vector<RankReport> ranks = {synthetic_rank(0, 0, 9, 100, 10'000), synthetic_rank(1, 0, 1, 100, 1'000'000)};
  LatencyHistogram both;
  both.record_n(10'000, 900);
  both.record_n(1'000'000, 100);
  const GroupAggregate g = aggregate_group(ranks, 0);
  const LatencyStat& lat = g.all.dirs[index_of(Direction::kRead)].lat;
  for (double p : {50.0, 90.0, 91.0, 99.0, 99.9}) EXPECT_EQ(lat.histogram.percentile(p), both.percentile(p)) << p;
  EXPECT_EQ(lat.histogram.percentile(99), LatencyHistogram::bucket_value(LatencyHistogram::bucket_of(1'000'000)));
  EXPECT_EQ(lat.histogram.percentile(90), LatencyHistogram::bucket_value(LatencyHistogram::bucket_of(10'000)));
  EXPECT_DOUBLE_EQ(lat.moments.min(), 10'000.0);
  EXPECT_DOUBLE_EQ(lat.moments.max(), 1'000'000.0);
  EXPECT_DOUBLE_EQ(lat.moments.mean(), (900 * 10'000.0 + 100 * 1'000'000.0) / 1000);
}

TEST(Aggregate, RankReportsSurviveTheirEncoding) {
  RankReport r = synthetic_rank(2, 5 * kSecond, 3, 50, 2000);
  r.failure = "job j: EIO";
  r.stop_signal = 15;
  r.environment = R"({"host":"h","kernel_release":"6.1"})";
  const RankReport back = decode_rank_report(encode_rank_report(r));
  EXPECT_EQ(back.rank, 2);
  EXPECT_EQ(back.host, "host2");
  EXPECT_EQ(back.failure, "job j: EIO");
  EXPECT_EQ(back.stop_signal, 15);
  EXPECT_EQ(back.environment, r.environment);
  ASSERT_EQ(back.groups.size(), 1u);
  EXPECT_EQ(back.groups[0].jobs[0].total_ios(), 150u);
  EXPECT_EQ(back.groups[0].jobs[0].series.size(), 3u);
  EXPECT_EQ(back.groups[0].jobs[0].start_ns, 5 * kSecond);
}

// Stonewall wear-out: rank 1 (clock 5 s ahead) did 600 ios by the deadline, rank 0 1,000; rank 1 caught up
// with 400 more, ending 2 s after its deadline. The total counts 2,000 ios over first start -> last end.
TEST(Aggregate, WearOutCountsEveryRankUpToTheLastOnesEnd) {
  std::vector<RankReport> ranks = {synthetic_rank(0, 0, 10, 100, 1000),
                                   synthetic_rank(1, 5 * kSecond, 10, 60, 1000, 5 * kSecond)};
  ranks[0].wearout = {RankWearOut{1000, 0, 0, 0, 0}};
  ranks[1].wearout = {RankWearOut{600, 400, 400 * 4096, 15 * kSecond, 17 * kSecond}};
  const GroupAggregate g = aggregate_group(ranks, 0);
  const std::optional<GroupWearOut> w = aggregate_wearout(ranks, 0, g);
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->deadline_min_ios, 600u);
  EXPECT_EQ(w->deadline_max_ios, 1000u);
  EXPECT_DOUBLE_EQ(w->total.ios, 2000.0);
  EXPECT_EQ(w->total.span_ns(), 12 * kSecond);  // 0 -> rank 1's 17 s, which is rank 0's 12 s
  EXPECT_DOUBLE_EQ(w->hosts[1].seconds, 2.0);
  EXPECT_DOUBLE_EQ(w->hosts[0].seconds, 0.0);
  ranks[0].wearout.clear();
  ranks[1].wearout.clear();
  EXPECT_FALSE(aggregate_wearout(ranks, 0, g).has_value());
  // The figures travel with the rank's report.
  ranks[1].wearout = {RankWearOut{600, 400, 400 * 4096, 15 * kSecond, 17 * kSecond}};
  const RankReport back = decode_rank_report(encode_rank_report(ranks[1]));
  ASSERT_EQ(back.wearout.size(), 1u);
  EXPECT_EQ(back.wearout[0].extra_ios, 400u);
  EXPECT_EQ(back.wearout[0].end_ns, 17 * kSecond);
}

// A clone's catch-up job keeps the clone's own files (its number in the name) and ends by count, not time.
TEST(WearOut, TheCatchUpJobOfACloneUsesItsFilesAndEndsByCount) {
  JobSpec clone;
  clone.name = "r";
  clone.control.numjobs = 4;
  clone.time.time_based = true;
  clone.time.runtime = std::chrono::seconds(10);
  clone.time.ramp_time = std::chrono::seconds(2);
  clone.target.filename_format = "$jobname.$jobnum.$filenum.rank1";
  clone.workload.bs = {4096, 65536, 4096};
  const JobSpec job = wearout_job(clone, 3, 500);
  EXPECT_EQ(job.control.numjobs, 1u);
  EXPECT_EQ(job.target.filename_format, "$jobname.3.$filenum.rank1");
  EXPECT_FALSE(job.time.time_based);
  EXPECT_EQ(job.time.runtime.count(), 0);
  EXPECT_EQ(job.time.ramp_time.count(), 0);
  EXPECT_EQ(job.time.number_ios, 500u);
  EXPECT_EQ(job.time.io_size, 500u * 65536u);
  JobSpec named = clone;
  named.target.filenames = {"/dev/shared"};
  named.target.filename_format.clear();
  EXPECT_TRUE(wearout_job(named, 3, 5).target.filename_format.empty());
}

TEST(ClusterRun, GeneratedFileNamesArePerRankNamedFilesAreShared) {
  JobSpec generated;
  generated.name = "a";
  JobSpec named;
  named.name = "b";
  named.target.filenames = {"/dev/shared"};
  named.iolog.write_iolog = "io.log";  // every rank its own log, even on shared files
  JobSpec formatted;
  formatted.name = "c";
  formatted.target.filename_format = "$jobname.f$filenum";
  JobSpec shared = generated;
  shared.target.unique_filename = false;  // fio's unique_filename=0: the hosts share the generated names
  const std::vector<JobSpec> jobs = per_rank_jobs({generated, named, formatted, shared}, 3);
  EXPECT_EQ(jobs[0].target.filename_format, "$jobname.$jobnum.$filenum.rank3");
  EXPECT_TRUE(jobs[1].target.filename_format.empty());
  EXPECT_EQ(jobs[1].target.filenames, std::vector<std::string>{"/dev/shared"});
  EXPECT_EQ(jobs[1].iolog.write_iolog, "io.log.rank3");
  EXPECT_TRUE(jobs[0].iolog.write_iolog.empty());
  EXPECT_EQ(jobs[2].target.filename_format, "$jobname.f$filenum.rank3");
  EXPECT_TRUE(jobs[3].target.filename_format.empty());
}

TEST(ClusterRun, DefaultTimeLimitIsTheJobsTimePlusAGraceOrNone) {
  JobSpec timed;
  timed.name = "t";
  timed.time.runtime = std::chrono::seconds(10);
  timed.time.ramp_time = std::chrono::seconds(2);
  EXPECT_EQ(default_time_limit({timed}), std::chrono::seconds(132));
  JobSpec sized;
  sized.name = "s";
  EXPECT_EQ(default_time_limit({timed, sized}), std::chrono::nanoseconds(0));
}

TEST(World, LaunchedByMpiReadsTheLaunchersVariables) {
  const auto with = [](std::map<std::string, std::string> env) {
    return launched_by_mpi([&env](const char* name) -> const char* {
      const auto it = env.find(name);
      return it == env.end() ? nullptr : it->second.c_str();
    });
  };
  EXPECT_FALSE(with({}));
  EXPECT_FALSE(with({{"OMPI_COMM_WORLD_SIZE", ""}}));
  EXPECT_TRUE(with({{"OMPI_COMM_WORLD_SIZE", "3"}}));
  EXPECT_TRUE(with({{"PMIX_RANK", "0"}}));
  EXPECT_TRUE(with({{"PMI_SIZE", "2"}}));
}

TEST(World, WithoutInitThereIsOneRank) {
  EXPECT_FALSE(active());
  EXPECT_EQ(rank(), 0);
  EXPECT_EQ(size(), 1);
  EXPECT_EQ(gather("x"), std::vector<std::string>{"x"});
  EXPECT_EQ(broadcast("y"), "y");
  EXPECT_TRUE(all_ok(true));
  EXPECT_FALSE(all_ok(false));
}

}  // namespace
}  // namespace sluice::mpi
