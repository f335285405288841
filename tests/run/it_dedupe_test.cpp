// dedupe_percentage next to fio 3.33: the files both tools write with the same job hold the same share of
// distinct 4 KiB blocks (fio's own t/fio-dedupe counts the same way), for dedupe_mode=repeat, working_set,
// and dedupe-global.fio's two jobs sharing their working set (each file alone and both together). The
// contents differ (each tool's generator); the shares agree within a few percent. Skips without fio.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <unordered_set>
#include <vector>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

constexpr std::size_t kBlock = 4096;

// Distinct 4 KiB blocks over the files together, and how many blocks they hold.
std::pair<std::size_t, std::size_t> distinct_blocks(const std::vector<std::string>& paths) {
  std::unordered_set<std::string> seen;
  std::size_t blocks = 0;
  for (const std::string& path : paths) {
    std::ifstream in(path, std::ios::binary);
    std::string block(kBlock, '\0');
    while (in.read(block.data(), kBlock)) {
      seen.insert(block);
      ++blocks;
    }
  }
  return {seen.size(), blocks};
}

double distinct_share(const std::vector<std::string>& paths) {
  const auto [distinct, blocks] = distinct_blocks(paths);
  EXPECT_GT(blocks, 0u);
  return blocks == 0 ? 0.0 : static_cast<double>(distinct) / static_cast<double>(blocks);
}

class Dedupe : public ::testing::Test {
 protected:
  void SetUp() override { SLUICE_REQUIRE(kFio); }

  // Runs `job` (after the common options) with fio, then with sluice, each in its own directory; returns
  // the directories.
  std::pair<std::string, std::string> write_both(const std::vector<std::string>& job) {
    const std::string fio_dir = tmp_.file("fio"), sluice_dir = tmp_.file("sluice");
    std::filesystem::create_directories(fio_dir);
    std::filesystem::create_directories(sluice_dir);
    auto with_dir = [&](const std::string& dir) {
      std::vector<std::string> args = {"--output-format=terse", "--ioengine=psync", "--bs=4k", "--rw=write",
                                       "--directory=" + dir};
      args.insert(args.end(), job.begin(), job.end());
      return args;
    };
    run_as("fio", with_dir(fio_dir));
    run_as("sluice", with_dir(sluice_dir));
    return {fio_dir, sluice_dir};
  }

  TempDir tmp_;
};

TEST_F(Dedupe, RepeatGivesFiosShareOfDistinctBlocks) {
  const auto [fio, sluice] = write_both({"--name=r", "--filename=r.dat", "--size=16m", "--dedupe_percentage=40"});
  const double fio_share = distinct_share({fio + "/r.dat"});
  const double sluice_share = distinct_share({sluice + "/r.dat"});
  EXPECT_NEAR(fio_share, 0.60, 0.04);
  EXPECT_NEAR(sluice_share, fio_share, 0.04);
}

TEST_F(Dedupe, WorkingSetGivesFiosShareOfDistinctBlocks) {
  const auto [fio, sluice] = write_both({"--name=w", "--filename=w.dat", "--size=16m", "--dedupe_percentage=50",
                                         "--dedupe_mode=working_set", "--dedupe_working_set_percentage=30"});
  const double fio_share = distinct_share({fio + "/w.dat"});
  const double sluice_share = distinct_share({sluice + "/w.dat"});
  EXPECT_NEAR(sluice_share, fio_share, 0.04);
  EXPECT_LT(sluice_share, 0.6);
}

TEST_F(Dedupe, GlobalWorkingSetIsSharedBetweenJobsAsInDedupeGlobalFio) {
  // dedupe-global.fio, smaller: jobs a and b repeat each other's blocks.
  const auto [fio, sluice] = write_both({"--size=8m", "--dedupe_mode=working_set", "--dedupe_global=1",
                                         "--dedupe_percentage=50", "--dedupe_working_set_percentage=50", "--name=a",
                                         "--filename=a.dat", "--name=b", "--filename=b.dat"});
  const double fio_a = distinct_share({fio + "/a.dat"});
  const double sluice_a = distinct_share({sluice + "/a.dat"});
  const double fio_both = distinct_share({fio + "/a.dat", fio + "/b.dat"});
  const double sluice_both = distinct_share({sluice + "/a.dat", sluice + "/b.dat"});
  EXPECT_NEAR(sluice_a, fio_a, 0.04);
  EXPECT_NEAR(sluice_both, fio_both, 0.04);
  EXPECT_LT(sluice_both, sluice_a);  // together they share more than each alone
}

TEST_F(Dedupe, WithoutDedupeEveryBlockIsDistinct) {
  const auto [fio, sluice] = write_both({"--name=u", "--filename=u.dat", "--size=8m"});
  EXPECT_EQ(distinct_share({sluice + "/u.dat"}), 1.0);
  EXPECT_EQ(distinct_share({fio + "/u.dat"}), 1.0);
}

}  // namespace
}  // namespace sluice::testing
