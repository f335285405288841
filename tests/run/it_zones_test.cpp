// zonemode=strided next to fio 3.33: the same jobs write the same io logs (offsets, lengths and order), in
// sequential and write modes, with an offset, with zones past the job's size and with zonesize above and
// below zonerange. Random jobs stay in the same zones with fio's counts. Skips without fio.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

class StridedZones : public ::testing::Test {
 protected:
  void SetUp() override {
    SLUICE_REQUIRE(kFio);
    // An 8 MiB file both tools use as it is (the jobs' sizes are at most its size).
    std::ofstream out(tmp_.file("f"), std::ios::binary);
    const std::string block(1 << 20, 'z');
    for (int i = 0; i < 8; ++i) out << block;
  }

  // The io logs of fio and sluice for the same job options.
  std::pair<std::vector<LoggedIo>, std::vector<LoggedIo>> both(const std::vector<std::string>& job) {
    std::vector<std::string> common = {"--name=z", "--filename=" + tmp_.file("f"), "--ioengine=psync",
                                       "--output-format=terse"};
    common.insert(common.end(), job.begin(), job.end());
    for (const std::string program : {"fio", "sluice"}) {
      std::vector<std::string> args = common;
      args.push_back("--write_iolog=" + tmp_.file(program + ".log"));
      std::filesystem::remove(tmp_.file(program + ".log"));  // both tools append to an existing io log
      run_as(program, args);
    }
    return {logged_ios(tmp_.file("fio.log")), logged_ios(tmp_.file("sluice.log"))};
  }

  TempDir tmp_;
};

TEST_F(StridedZones, SequentialLogsMatchFio) {
  const std::vector<std::vector<std::string>> jobs = {
      {"--size=8m", "--bs=64k", "--rw=read", "--zonemode=strided", "--zonesize=256k", "--zoneskip=1m"},
      {"--size=2m", "--offset=512k", "--bs=64k", "--rw=read", "--zonemode=strided", "--zonesize=256k", "--zoneskip=1m"},
      {"--size=8m", "--bs=64k", "--rw=read", "--zonemode=strided", "--zonesize=128k", "--zonerange=512k",
       "--zoneskip=256k"},
      {"--size=8m", "--bs=64k", "--rw=write", "--zonemode=strided", "--zonesize=1m", "--zonerange=256k",
       "--zoneskip=768k"},
      {"--size=8m", "--bs=64k", "--rw=read", "--zonemode=strided", "--zonesize=256k", "--zoneskip=1m", "--io_size=3m",
       "--loops=2"},
  };
  for (const auto& job : jobs) {
    const auto [fio, sluice] = both(job);
    ASSERT_FALSE(fio.empty());
    EXPECT_EQ(sluice, fio) << ::testing::PrintToString(job);
  }
}

TEST_F(StridedZones, RandomIosStayInFiosZones) {
  const auto [fio, sluice] = both({"--size=8m", "--bs=64k", "--rw=randread", "--zonemode=strided", "--zonesize=512k",
                                   "--zonerange=256k", "--zoneskip=1m"});
  ASSERT_EQ(sluice.size(), fio.size());
  // Offsets differ (each tool's random generator) but every group of 4 ios covers the same zone's 4 blocks.
  for (std::size_t i = 0; i + 4 <= fio.size(); i += 4) {
    std::set<std::uint64_t> in_fio, in_sluice;
    for (std::size_t k = i; k < i + 4; ++k) {
      in_fio.insert(fio[k].offset);
      in_sluice.insert(sluice[k].offset);
    }
    EXPECT_EQ(in_sluice, in_fio) << "ios " << i << "-" << i + 3;
  }
}

}  // namespace
}  // namespace sluice::testing
