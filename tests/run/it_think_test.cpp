// thinktime_blocks_type and thinktime_iotime next to fio 3.33: the pauses in the io logs both tools write
// for the same job (a pause is a gap of at least half the thinktime between two logged ios). Skips without
// fio. The pauses are long (200 ms and more) and the rates low (100 IOPS) so that a busy machine (load 10 on
// 2 cores: a process waits tens of ms for a CPU, and psync sustains a few hundred IOPS) neither shows a gap
// that is not a pause nor misses the rate.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

// The number of ios between consecutive pauses of at least `gap_us` in a version 3 io log.
std::vector<int> ios_between_pauses(const std::string& path, std::uint64_t gap_us) {
  std::ifstream in(path);
  std::vector<std::uint64_t> times;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::uint64_t time = 0;
    std::string file, action;
    if (fields >> time >> file >> action && (action == "read" || action == "write")) times.push_back(time);
  }
  std::vector<int> runs;
  int run = times.empty() ? 0 : 1;
  for (std::size_t i = 1; i < times.size(); ++i) {
    if (times[i] - times[i - 1] >= gap_us) {
      runs.push_back(run);
      run = 0;
    }
    ++run;
  }
  runs.push_back(run);
  return runs;
}

class ThinkTime : public ::testing::Test {
 protected:
  void SetUp() override {
    SLUICE_REQUIRE(kFio);
    std::ofstream out(tmp_.file("f"), std::ios::binary);
    out << std::string(8 << 20, 'x');  // read from the page cache: ios far shorter than the pauses
  }

  std::pair<std::vector<int>, std::vector<int>> both(const std::vector<std::string>& job, std::uint64_t gap_us) {
    std::vector<std::string> common = {"--name=t", "--filename=" + tmp_.file("f"), "--output-format=terse"};
    common.insert(common.end(), job.begin(), job.end());
    for (const std::string program : {"fio", "sluice"}) {
      std::vector<std::string> args = common;
      args.push_back("--write_iolog=" + tmp_.file(program + ".log"));
      run_as(program, args);
    }
    return {ios_between_pauses(tmp_.file("fio.log"), gap_us), ios_between_pauses(tmp_.file("sluice.log"), gap_us)};
  }

  TempDir tmp_;
};

TEST_F(ThinkTime, IssueTypeCountsIssuedIosAsFio) {
  // 8 in flight, a pause after every 10 issued ios: both tools issue exactly 10 between pauses.
  const auto [fio, sluice] = both({"--ioengine=libaio", "--iodepth=8", "--rw=randread", "--number_ios=100",
                                   "--thinktime=200ms", "--thinktime_blocks=10", "--thinktime_blocks_type=issue"},
                                  100000);
  EXPECT_EQ(fio, std::vector<int>(10, 10));
  EXPECT_EQ(sluice, fio);
}

TEST_F(ThinkTime, CompleteTypePausesAsOftenAsFio) {
  // Counting completions, the ios issued per period depend on when each tool reaps; the pauses do not.
  const auto [fio, sluice] = both({"--ioengine=libaio", "--iodepth=8", "--rw=randread", "--number_ios=100",
                                   "--thinktime=200ms", "--thinktime_blocks=10"},
                                  100000);
  EXPECT_EQ(sluice.size(), fio.size());
  EXPECT_EQ(sluice.size(), 10u);
}

TEST_F(ThinkTime, IoTimePausesAfterEachPeriodOfIo) {
  // 4 s at 100 ios/s: a pause is due 1.2 s (iotime + thinktime) after the last one began (the first: after
  // the start), at 1.2, 2.4 and 3.6 s; the last one lasts to the end, so two lie between logged ios.
  const auto [fio, sluice] = both({"--ioengine=psync", "--rw=randread", "--time_based", "--runtime=4s",
                                   "--rate_iops=100", "--thinktime=400ms", "--thinktime_iotime=800ms"},
                                  200000);
  EXPECT_EQ(fio.size(), 3u);
  EXPECT_EQ(sluice.size(), fio.size());
}

TEST_F(ThinkTime, RateIgnoreThinktimeDoesNotCatchUpAfterAPause) {
  // The same job with rate_ignore_thinktime=1: the ios missed during a pause are not issued afterwards, so
  // the runs after the pauses hold 80 ios instead of 120 (about 280 ios in all instead of 360).
  const auto [fio, sluice] =
      both({"--ioengine=psync", "--rw=randread", "--time_based", "--runtime=4s", "--rate_iops=100", "--thinktime=400ms",
            "--thinktime_iotime=800ms", "--rate_ignore_thinktime=1"},
           200000);
  ASSERT_EQ(fio.size(), 3u);
  ASSERT_EQ(sluice.size(), 3u);
  for (std::size_t i = 1; i < 3; ++i) {
    EXPECT_NEAR(fio[i], 80, 10) << i;
    EXPECT_NEAR(sluice[i], fio[i], 10) << i;
  }
}

}  // namespace
}  // namespace sluice::testing
