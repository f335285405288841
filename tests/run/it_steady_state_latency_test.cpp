// ss=lat and ss=lat_slope (fio 3.42): steady state judged on the mean completion latency of each
// ss_interval. Each job runs in sluice and, at the same time, in the fio of tests/support/newer_fio.h when that
// fio knows the criterion; both must reach (or not reach) steady state alike and write the same shape of
// "steadystate" block: the same keys in the same order, "ss" with the limit in nanoseconds, lat_ns and
// lat_mean. Without that fio, sluice's block is checked against what it must hold.
#include <gtest/gtest.h>

#include <future>
#include <iostream>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/newer_fio.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

bool newer_fio_knows_lat() {
  RunOptions options;
  options.program = newer_fio();
  const RunOutput r = run_binary({"--cmdhelp=steadystate"}, options);
  return r.exit_code == 0 && r.out.find("lat_slope") != std::string::npos;
}

RunOutput run_fio_ss(const std::vector<std::string>& args) {
  RunOptions options;
  options.program = newer_fio();
  options.timeout = std::chrono::seconds(30);
  RunOutput r = run_binary(args, options);
  EXPECT_EQ(r.exit_code, 0) << newer_fio() << ": " << describe(r);
  return r;
}

struct SsBlock {
  nlohmann::ordered_json steadystate;
  std::uint64_t job_runtime_ms = 0;
};

SsBlock ss_block_of(const RunOutput& r) {
  SsBlock b;
  try {
    const auto doc = nlohmann::ordered_json::parse(r.out);
    b.steadystate = doc["jobs"][0]["steadystate"];
    b.job_runtime_ms = doc["jobs"][0]["job_runtime"].get<std::uint64_t>();
  } catch (const nlohmann::json::exception& e) {
    ADD_FAILURE() << e.what() << "\n" << describe(r);
  }
  return b;
}

std::vector<std::string> keys_of(const nlohmann::ordered_json& object) {
  std::vector<std::string> keys;
  for (const auto& [key, value] : object.items()) keys.push_back(key);
  return keys;
}

// The block sluice must write for ss=lat|lat_slope over `intervals` samples: fio 3.42's keys, lat_mean the
// truncated mean of the whole window.
void expect_lat_block(const nlohmann::ordered_json& ss, std::size_t intervals, const std::string& who) {
  ASSERT_TRUE(ss.is_object()) << who;
  EXPECT_EQ(keys_of(ss),
            (std::vector<std::string>{"ss", "duration", "attained", "criterion", "max_deviation", "slope", "data"}))
      << who;
  const nlohmann::ordered_json& data = ss["data"];
  EXPECT_EQ(keys_of(data), (std::vector<std::string>{"bw_mean", "iops_mean", "lat_mean", "lat_ns", "iops", "bw"}))
      << who;
  ASSERT_EQ(data["lat_ns"].size(), intervals) << who;
  std::uint64_t sum = 0;
  for (const auto& v : data["lat_ns"]) sum += v.get<std::uint64_t>();
  EXPECT_EQ(data["lat_mean"].get<std::uint64_t>(), sum / intervals) << who;
}

// Runs the job in sluice and in the newer fio (when it knows ss=lat) at the same time.
std::pair<RunOutput, std::optional<RunOutput>> ss_pair(const std::vector<std::string>& sluice_args,
                                                       const std::vector<std::string>& fio_args) {
  std::future<RunOutput> fio;
  const bool compare = newer_fio_knows_lat();
  if (compare) fio = std::async(std::launch::async, [&] { return run_fio_ss(fio_args); });
  RunOutput sluice = run_as("sluice", sluice_args);
  if (!compare) return {sluice, std::nullopt};
  return {sluice, fio.get()};
}

// The null engine's completion latency varies by nanoseconds: within 1,000,000 ns (a bare number: fio
// 3.42's unit) of the mean from the first full window of two seconds on.
TEST(SteadyStateLatency, NullEngineReachesItWithinAnAbsoluteLimitInNanoseconds) {
  const std::vector<std::string> args = {"--name=s",         "--ioengine=null", "--size=64m",
                                         "--bs=4k",          "--time_based",    "--runtime=10",
                                         "--ss=lat:1000000", "--ss_dur=2",      "--output-format=json"};
  const auto [sluice, fio] = ss_pair(args, args);
  const SsBlock s = ss_block_of(sluice);
  expect_lat_block(s.steadystate, 2, "sluice");
  EXPECT_EQ(s.steadystate["ss"], "lat:1000000.000000");
  EXPECT_EQ(s.steadystate["attained"], 1);
  EXPECT_LT(s.job_runtime_ms, 4000u) << "ended by steady state, not by the 10 s runtime";
  for (const auto& v : s.steadystate["data"]["lat_ns"]) EXPECT_GT(v.get<std::uint64_t>(), 0u);
  if (!fio) GTEST_SKIP() << newer_fio() << " has no ss=lat: sluice checked alone";
  const SsBlock f = ss_block_of(*fio);
  expect_lat_block(f.steadystate, 2, "fio");
  EXPECT_EQ(f.steadystate["ss"], s.steadystate["ss"]);
  EXPECT_EQ(f.steadystate["attained"], 1);
  EXPECT_LT(f.job_runtime_ms, 5000u);
}

// A window longer than the run is never full: not attained, the unsampled interval listed as 0, in both.
TEST(SteadyStateLatency, SlopeNotReachedWhenTheWindowNeverFills) {
  const std::vector<std::string> args = {"--name=s",          "--ioengine=null", "--size=64m",
                                         "--bs=4k",           "--time_based",    "--runtime=2",
                                         "--ss=lat_slope:5%", "--ss_dur=3",      "--output-format=json"};
  const auto [sluice, fio] = ss_pair(args, args);
  const SsBlock s = ss_block_of(sluice);
  expect_lat_block(s.steadystate, 3, "sluice");
  EXPECT_EQ(s.steadystate["ss"], "lat_slope:5.000000%");
  EXPECT_EQ(s.steadystate["attained"], 0);
  EXPECT_EQ(s.steadystate["data"]["lat_ns"][2], 0);
  if (!fio) GTEST_SKIP() << newer_fio() << " has no ss=lat: sluice checked alone";
  const SsBlock f = ss_block_of(*fio);
  expect_lat_block(f.steadystate, 3, "fio");
  EXPECT_EQ(f.steadystate["ss"], s.steadystate["ss"]);
  EXPECT_EQ(f.steadystate["attained"], 0);
  EXPECT_EQ(f.steadystate["data"]["lat_ns"][2], 0);
}

// On a file: two samples are always within 100 % of their mean, so both reach steady state at the first full
// window, with psync and with libaio.
void file_job_reaches_steady_state(const std::string& engine) {
  TempDir tmp;
  const auto args = [&](const std::string& who) {
    return std::vector<std::string>{"--name=f",
                                    "--filename=" + tmp.file(who),
                                    "--ioengine=" + engine,
                                    "--size=4m",
                                    "--bs=4k",
                                    "--rw=randread",
                                    "--time_based",
                                    "--runtime=10",
                                    "--ss=lat:100%",
                                    "--ss_dur=2",
                                    "--output-format=json"};
  };
  const auto [sluice, fio] = ss_pair(args("sluice"), args("fio"));
  const SsBlock s = ss_block_of(sluice);
  expect_lat_block(s.steadystate, 2, "sluice " + engine);
  EXPECT_EQ(s.steadystate["attained"], 1) << engine;
  EXPECT_LT(s.job_runtime_ms, 4000u) << engine;
  if (!fio) GTEST_SKIP() << newer_fio() << " has no ss=lat: sluice checked alone";
  const SsBlock f = ss_block_of(*fio);
  expect_lat_block(f.steadystate, 2, "fio " + engine);
  EXPECT_EQ(f.steadystate["ss"], "lat:100.000000%");
  EXPECT_EQ(f.steadystate["ss"], s.steadystate["ss"]);
  EXPECT_EQ(f.steadystate["attained"], 1) << engine;
}

TEST(SteadyStateLatency, FileWithPsync) { file_job_reaches_steady_state("psync"); }

TEST(SteadyStateLatency, FileWithLibaio) { file_job_reaches_steady_state("libaio"); }

// What a group's "steadystate" block must show when the group is judged as one (fio's steadystate_check
// under group_reporting): iops the sum of both jobs' rates, and each latency sample the group's mean weighted
// by ios, close to the group's clat mean over the run. Judged per job, the block (of the first job, the
// slow one) would show 200 iops and its own latency, about fifteen times the group's.
void expect_group_judged(const RunOutput& r, const std::string& who) {
  try {
    const auto doc = nlohmann::json::parse(r.out.substr(std::min(r.out.find('{'), r.out.size())));
    ASSERT_EQ(doc["jobs"].size(), 1u) << who << ": one group entry";
    const auto& job = doc["jobs"][0];
    const auto& ss = job["steadystate"];
    EXPECT_EQ(ss["attained"], 1) << who;
    const double iops_mean = ss["data"]["iops_mean"].get<double>();
    EXPECT_GT(iops_mean, 0.6 * 3200) << who << ": the group's iops, not one job's";
    EXPECT_LT(iops_mean, 1.1 * 3200) << who;
    const double lat_mean = ss["data"]["lat_mean"].get<double>();
    const double group_clat = job["read"]["clat_ns"]["mean"].get<double>();
    EXPECT_GT(lat_mean, group_clat / 2) << who << ": the group's latency weighted by ios";
    EXPECT_LT(lat_mean, group_clat * 2) << who << ": the group's latency weighted by ios, not the slow job's";
    std::cout << who << ": iops_mean " << iops_mean << ", lat_mean " << lat_mean << " ns, group clat mean "
              << group_clat << " ns, runtime " << job["job_runtime"] << " ms\n";
  } catch (const nlohmann::json::exception& e) {
    ADD_FAILURE() << who << ": " << e.what() << "\n" << describe(r);
  }
}

// Two jobs under group_reporting, ss=lat: a slow one (1 MiB reads of a file, 200 a second) and a fast one
// (null engine, 3,000 a second). fio 3.42: iops_mean 3,200 ...; see docs/fio-compatibility.md.
TEST(SteadyStateLatency, GroupReportingJudgesTheGroupAsOne) {
  TempDir tmp;
  const auto args = [&](const std::string& who) {
    return std::vector<std::string>{"--group_reporting",
                                    "--time_based",
                                    "--runtime=10",
                                    "--ss=lat:100%",
                                    "--ss_dur=2",
                                    "--rw=randread",
                                    "--output-format=json",
                                    "--name=slow",
                                    "--filename=" + tmp.make_file(who, 4 << 20),
                                    "--ioengine=psync",
                                    "--bs=1m",
                                    "--size=4m",
                                    "--rate_iops=200",
                                    "--name=fast",
                                    "--ioengine=null",
                                    "--bs=4k",
                                    "--size=64m",
                                    "--rate_iops=3000"};
  };
  const auto [sluice, fio] = ss_pair(args("sluice"), args("fio"));
  expect_group_judged(sluice, "sluice");
  if (!fio) GTEST_SKIP() << newer_fio() << " has no ss=lat: sluice checked alone";
  expect_group_judged(*fio, "fio");
}

TEST(SteadyStateLatency, ALimitThatIsNoTimeIsRefused) {
  expect_run_refused({"--name=s", "--ioengine=null", "--size=1m", "--ss=lat:abc", "--ss_dur=2"},
                     "a latency limit is a time");
}

}  // namespace
}  // namespace sluice::testing
