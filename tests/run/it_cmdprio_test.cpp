// fio's per-io priorities (cmdprio_percentage, cmdprio_class, cmdprio, cmdprio_bssplit, log_prio) next to fio
// 3.33 on the same jobs: the JSON's "prios" split (which priorities, each one's share of the ios), the text
// report's "clat prio C/L" lines, the logs' priority column, group_reporting's merge, and the refusals.
// Skips without fio; the realtime class needs root (CAP_SYS_ADMIN), as in fio.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

using PrioShares = std::map<std::pair<int, int>, double>;  // (class, level) -> share of the direction's ios

class CmdprioRun : public ::testing::Test {
 protected:
  void SetUp() override {
    SLUICE_REQUIRE(kFio);
    if (!is_root()) GTEST_SKIP() << "the realtime priority class needs root";
    std::ofstream out(tmp_.file("f"), std::ios::binary);
    out << std::string(8 << 20, 'P');
  }

  // 16 MiB of direct ios over the 8 MiB file at depth 8, with `extra`; the whole JSON report.
  nlohmann::json report_of(const std::string& program, const std::vector<std::string>& extra) {
    std::vector<std::string> args = {
        "--name=cp",  "--filename=" + tmp_.file("f"), "--size=8m", "--io_size=16m", "--ioengine=libaio", "--iodepth=8",
        "--direct=1", "--output-format=json"};
    args.insert(args.end(), extra.begin(), extra.end());
    const RunOutput r = run_as(program, args);
    const auto doc = parse_document(r.out);
    return doc ? *doc : nlohmann::json{};
  }

  // The direction's "prios" as shares of its clat (or lat) samples; empty when the key is absent.
  static PrioShares shares(const nlohmann::json& dir, const char* kind = "clat_ns") {
    PrioShares out;
    if (!dir.contains("prios")) return out;
    const double all = dir.at(kind).at("N").get<double>();
    double sum = 0;
    for (const auto& p : dir.at("prios")) {
      const double n = p.at(kind).at("N").get<double>();
      out[{p.at("prioclass").get<int>(), p.at("prio").get<int>()}] = n / all;
      sum += n;
    }
    EXPECT_DOUBLE_EQ(sum, all) << "the priorities' samples add up to the direction's";
    return out;
  }

  static std::set<std::pair<int, int>> keys(const PrioShares& s) {
    std::set<std::pair<int, int>> out;
    for (const auto& [key, share] : s) out.insert(key);
    return out;
  }

  TempDir tmp_;
};

TEST_F(CmdprioRun, PercentageSplitsEachDirectionAsFio) {
  const std::vector<std::string> extra = {"--rw=randrw", "--cmdprio_percentage=30,60", "--cmdprio_class=1,2",
                                          "--cmdprio=0,3"};
  for (const std::string program : {"fio", "sluice"}) {
    const nlohmann::json job = report_of(program, extra)["jobs"][0];
    const PrioShares reads = shares(job["read"]);
    const PrioShares writes = shares(job["write"]);
    // The job's own priority (none: 0/0) first, then the cmdprio one.
    EXPECT_EQ(keys(reads), (std::set<std::pair<int, int>>{{0, 0}, {1, 0}})) << program;
    EXPECT_EQ(keys(writes), (std::set<std::pair<int, int>>{{0, 0}, {2, 3}})) << program;
    EXPECT_NEAR(reads.at({1, 0}), 0.30, 0.05) << program;  // about 2048 reads: a 5-point band is > 4 sigma
    EXPECT_NEAR(writes.at({2, 3}), 0.60, 0.05) << program;
    EXPECT_EQ(job["read"]["prios"][0]["prioclass"].get<int>(), 0) << program;
  }
}

TEST_F(CmdprioRun, BssplitGivesEachSizeItsPrioritiesAndKeepsTheJobsOwn) {
  // fio's cmdprio-bssplit.fio "cmdprio-adv-def": of the 4 KiB reads 25 % at 1/1, 75 % at 3/2; the rest at the
  // job's 2/7. Writes have only 0 % entries: no split for them.
  const std::vector<std::string> extra = {"--rw=randrw",
                                          "--prioclass=2",
                                          "--prio=7",
                                          "--bssplit=4k/40:16k/60,16k/100",
                                          "--norandommap",  // the random map would shorten 16 KiB ios to 4 KiB
                                          "--cmdprio_bssplit=4k/25/1/1:4k/75/3/2:16k/0,16k/0"};
  for (const std::string program : {"fio", "sluice"}) {
    const nlohmann::json job = report_of(program, extra)["jobs"][0];
    const PrioShares reads = shares(job["read"]);
    EXPECT_EQ(keys(reads), (std::set<std::pair<int, int>>{{2, 7}, {1, 1}, {3, 2}})) << program;
    EXPECT_EQ(job["read"]["prios"][0]["prioclass"].get<int>(), 2) << program;
    // bssplit's shares count ios: 40 % of the reads are 4 KiB, so 10 % at 1/1 and 30 % at 3/2 (of about 730
    // reads: the bands are 4 sigma).
    EXPECT_NEAR(reads.at({1, 1}), 0.10, 0.045) << program;
    EXPECT_NEAR(reads.at({3, 2}), 0.30, 0.07) << program;
    EXPECT_FALSE(job["write"].contains("prios")) << program;
  }
}

TEST_F(CmdprioRun, IoUringAndLatPercentilesSplitTotalLatency) {
  const std::vector<std::string> extra = {"--rw=randread", "--ioengine=io_uring", "--cmdprio_percentage=50",
                                          "--lat_percentiles=1"};
  for (const std::string program : {"fio", "sluice"}) {
    const nlohmann::json job = report_of(program, extra)["jobs"][0];
    ASSERT_TRUE(job["read"].contains("prios")) << program;
    EXPECT_TRUE(job["read"]["prios"][0].contains("lat_ns")) << program;
    EXPECT_FALSE(job["read"]["prios"][0].contains("clat_ns")) << program;
    EXPECT_NEAR(shares(job["read"], "lat_ns").at({1, 0}), 0.5, 0.05) << program;
  }
}

TEST_F(CmdprioRun, GroupReportingMergesThePrioritiesOfTheClones) {
  const std::vector<std::string> extra = {"--rw=randread", "--numjobs=2", "--group_reporting",
                                          "--cmdprio_percentage=20"};
  for (const std::string program : {"fio", "sluice"}) {
    const nlohmann::json report = report_of(program, extra);
    ASSERT_EQ(report["jobs"].size(), 1u) << program;
    const PrioShares reads = shares(report["jobs"][0]["read"]);
    EXPECT_EQ(keys(reads), (std::set<std::pair<int, int>>{{0, 0}, {1, 0}})) << program;
    EXPECT_NEAR(reads.at({1, 0}), 0.20, 0.04) << program;
  }
}

// The priority column of a per-io latency log: the values seen and how many lines had each.
std::map<std::string, int> priority_column(const std::string& path) {
  std::ifstream in(path);
  std::map<std::string, int> seen;
  std::string line;
  while (std::getline(in, line)) seen[line.substr(line.rfind(", ") + 2)]++;
  return seen;
}

TEST_F(CmdprioRun, LogsCarryEachIosPriority) {
  // fio's cmdprio-percentage.fio: the job at the idle class, 20 % of the reads realtime.
  for (const std::string program : {"fio", "sluice"}) {
    const std::string prefix = tmp_.file(program);
    report_of(program, {"--rw=randread", "--prioclass=3", "--cmdprio_percentage=20", "--cmdprio_class=1",
                        "--write_lat_log=" + prefix, "--log_prio=1"});
    const std::map<std::string, int> hex = priority_column(prefix + "_clat.1.log");
    EXPECT_EQ(hex.size(), 2u) << program;
    ASSERT_TRUE(hex.count("0x6000") && hex.count("0x2000")) << program;
    EXPECT_NEAR(hex.at("0x2000") / 4096.0, 0.20, 0.04) << program;

    const std::string flag_prefix = tmp_.file(program + "-flag");
    report_of(program, {"--rw=randread", "--cmdprio_percentage=20", "--write_lat_log=" + flag_prefix});
    const std::map<std::string, int> flags = priority_column(flag_prefix + "_lat.1.log");
    ASSERT_TRUE(flags.count("0") && flags.count("1")) << program;  // 1: a realtime io
    EXPECT_NEAR(flags.at("1") / 4096.0, 0.20, 0.04) << program;
  }
}

TEST_F(CmdprioRun, TheTextReportHasFiosPerPriorityLines) {
  for (const std::string program : {"fio", "sluice"}) {
    const RunOutput r = run_as(program, {"--name=cp", "--filename=" + tmp_.file("f"), "--size=8m", "--rw=randread",
                                         "--ioengine=libaio", "--iodepth=8", "--direct=1", "--cmdprio_percentage=25"});
    EXPECT_NE(r.out.find("    clat prio 0/0 ("), std::string::npos) << program << ": " << r.out;
    EXPECT_NE(r.out.find("    clat prio 1/0 ("), std::string::npos) << program;
    EXPECT_NE(r.out.find("% of IOs) percentiles ("), std::string::npos) << program;
  }
}

TEST_F(CmdprioRun, NoSplitWithoutCmdprio) {
  for (const std::string program : {"fio", "sluice"}) {
    const nlohmann::json job = report_of(program, {"--rw=randread", "--prioclass=2", "--prio=4"})["jobs"][0];
    EXPECT_FALSE(job["read"].contains("prios")) << program;
  }
}

// Bad combinations are refused before anything runs, naming the option (fio refuses them too).
TEST(CmdprioOptions, RefusedWhereFioRefusesThem) {
  TempDir tmp;
  struct Case {
    std::vector<std::string> options;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"--ioengine=psync", "--cmdprio_percentage=30"},
       "cmdprio_percentage is an option of ioengine=libaio and io_uring"},
      {{"--ioengine=libaio", "--cmdprio_percentage=30", "--cmdprio_bssplit=4k/20"}, "mutually exclusive"},
      {{"--ioengine=libaio", "--cmdprio_bssplit=4k/60:4k/50"}, "add up to 110, more than 100"},
      {{"--ioengine=libaio", "--cmdprio_bssplit=4k/60/1"}, "size/percent or size/percent/class/level"},
      {{"--ioengine=libaio", "--cmdprio_percentage=101"}, "cmdprio_percentage"},
      {{"--ioengine=libaio", "--cmdprio_class=4"}, "cmdprio_class"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"run", "--name=x", "--filename=" + tmp.file("f"), "--size=64k"};
    args.insert(args.end(), c.options.begin(), c.options.end());
    const RunOutput r = run_binary(args);
    EXPECT_EQ(r.exit_code, 1) << describe(r);
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.options.back() << ": " << r.err;
  }
}

}  // namespace
}  // namespace sluice::testing
