// bwavgtime and iopsavgtime next to fio 3.33: the JSON's bw_samples and iops_samples count one sample per
// averaging window in both tools (fio's default 500 ms, or the given window), and the samples' mean is the
// job's rate. Skips without fio. 200 IOPS of psync page-cache reads: a rate both tools keep on a busy machine
// too (at a load of 10 to 14 on 2 cores psync sustains a few hundred IOPS; 2000 IOPS fell short by 40%).
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

class RateSamples : public ::testing::Test {
 protected:
  void SetUp() override {
    SLUICE_REQUIRE(kFio);
    std::ofstream out(tmp_.file("f"), std::ios::binary);
    out << std::string(8 << 20, 'r');
  }

  nlohmann::json read_of(const std::string& program, const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"--name=r",
                                     "--filename=" + tmp_.file("f"),
                                     "--rw=randread",
                                     "--bs=4k",
                                     "--ioengine=psync",
                                     "--time_based",
                                     "--runtime=2",
                                     "--rate_iops=200",
                                     "--output-format=json"};
    args.insert(args.end(), extra.begin(), extra.end());
    const RunOutput r = run_as(program, args);
    const std::size_t start = r.out.find("{\n");
    const auto doc = parse_document(start == std::string::npos ? r.out : r.out.substr(start));
    return doc ? (*doc)["jobs"][0]["read"] : nlohmann::json{};
  }

  TempDir tmp_;
};

TEST_F(RateSamples, OneSamplePerWindowAsInFio) {
  struct Case {
    std::vector<std::string> options;
    int samples;  // windows in the 2 s runtime
  };
  for (const Case& c : {Case{{}, 4}, Case{{"--bwavgtime=250", "--iopsavgtime=1000"}, 8}}) {
    for (const std::string program : {"fio", "sluice"}) {
      const nlohmann::json read = read_of(program, c.options);
      const int bw = read["bw_samples"].get<int>();
      EXPECT_GE(bw, c.samples - 1) << program;
      EXPECT_LE(bw, c.samples) << program;
      const int iops = read["iops_samples"].get<int>();
      const int iops_windows = c.options.empty() ? 4 : 2;
      EXPECT_GE(iops, iops_windows - 1) << program;
      EXPECT_LE(iops, iops_windows) << program;
      // rate_iops=200: every window's mean is near 200 ios/s (800 KiB/s).
      EXPECT_NEAR(read["iops_mean"].get<double>(), 200.0, 10.0) << program;
      EXPECT_NEAR(read["bw_mean"].get<double>(), 800.0, 40.0) << program;
    }
  }
}

}  // namespace
}  // namespace sluice::testing
