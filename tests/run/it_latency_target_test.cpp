// fio's latency_target, latency_window, latency_percentile and latency_run next to fio 3.33 on the same jobs:
// a target every depth meets ends at iodepth after a final window (well before the runtime), a target no io
// meets fails the job at depth 1 with fio's error (percentile 100) or keeps it at depth 1 (99), in both; the
// JSON carries fio's latency_* keys. Skips without fio.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

class LatencyTargetRun : public ::testing::Test {
 protected:
  void SetUp() override {
    SLUICE_REQUIRE(kFio);
    std::ofstream out(tmp_.file("f"), std::ios::binary);
    out << std::string(16 << 20, 'L');
  }

  // The first job of `program`'s JSON report for a 4 KiB random-read job at iodepth 16 with `extra`.
  nlohmann::json job_of(const std::string& program, const std::vector<std::string>& extra, int want_exit = 0) {
    std::vector<std::string> args = {"--name=lt",           "--filename=" + tmp_.file("f"),
                                     "--rw=randread",       "--bs=4k",
                                     "--ioengine=libaio",   "--iodepth=16",
                                     "--direct=1",          "--time_based",
                                     "--runtime=8",         "--latency_window=200ms",
                                     "--output-format=json"};
    args.insert(args.end(), extra.begin(), extra.end());
    RunOptions options;
    if (program == "fio")
      options.program = "fio";
    else
      args.insert(args.begin(), "run");
    const RunOutput r = run_binary(args, options);
    EXPECT_EQ(r.exit_code, want_exit) << program << ": " << describe(r);
    const std::size_t start = r.out.find("{\n");
    const auto doc = parse_document(start == std::string::npos ? r.out : r.out.substr(start));
    return doc ? (*doc)["jobs"][0] : nlohmann::json{};
  }

  TempDir tmp_;
};

TEST_F(LatencyTargetRun, AnEasyTargetEndsAtIodepthAfterAFinalWindow) {
  for (const std::string program : {"fio", "sluice"}) {
    const nlohmann::json job = job_of(program, {"--latency_target=1s", "--latency_percentile=99"});
    EXPECT_EQ(job["error"].get<int>(), 0) << program;
    EXPECT_EQ(job["latency_depth"].get<int>(), 16) << program;
    EXPECT_EQ(job["latency_target"].get<std::uint64_t>(), 1'000'000'000u) << program;
    EXPECT_EQ(job["latency_window"].get<std::uint64_t>(), 200'000u) << program;
    EXPECT_DOUBLE_EQ(job["latency_percentile"].get<double>(), 99.0) << program;
    // 1, 2, 4, 8, 16, 16 again (found), then the final window: about 1.4 s of the 8 s runtime, and only the
    // final window is reported.
    EXPECT_LT(job["read"]["runtime"].get<std::uint64_t>(), 1000u) << program;
    EXPECT_GT(job["read"]["total_ios"].get<std::uint64_t>(), 0u) << program;
  }
}

TEST_F(LatencyTargetRun, AnImpossibleTargetFailsAtDepthOne) {
  for (const std::string program : {"fio", "sluice"}) {
    const nlohmann::json job = job_of(program, {"--latency_target=1"}, 1);
    EXPECT_EQ(job["error"].get<int>(), 110) << program;  // ETIMEDOUT, fio's lat_fatal
    EXPECT_EQ(job["latency_depth"].get<int>(), 1) << program;
  }
}

TEST_F(LatencyTargetRun, AMissedPercentileKeepsDepthOne) {
  for (const std::string program : {"fio", "sluice"}) {
    const nlohmann::json job = job_of(program, {"--latency_target=1", "--latency_percentile=50", "--runtime=1"});
    EXPECT_EQ(job["error"].get<int>(), 0) << program;
    EXPECT_EQ(job["latency_depth"].get<int>(), 1) << program;
    EXPECT_EQ(job["iodepth_level"]["1"].get<double>(), 100.0) << program;
  }
}

TEST_F(LatencyTargetRun, TheTextReportHasFiosLine) {
  const std::vector<std::string> args = {"run",
                                         "--name=lt",
                                         "--filename=" + tmp_.file("f"),
                                         "--rw=randread",
                                         "--ioengine=libaio",
                                         "--iodepth=4",
                                         "--direct=1",
                                         "--size=1m",
                                         "--latency_target=1s",
                                         "--latency_window=50ms"};
  const RunOutput r = run_binary(args);
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.out.find("latency   : target=1000000000, window=50000, percentile=100.00%, depth="), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("`sluice capacity` finds the highest load"), std::string::npos) << r.out;
}

TEST_F(LatencyTargetRun, AWindowIsRequired) {
  const RunOutput r = run_binary({"run", "--name=lt", "--filename=" + tmp_.file("f"), "--latency_target=1ms"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("latency_target needs latency_window"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace sluice::testing
