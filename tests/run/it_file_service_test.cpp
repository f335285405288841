// file_service_type next to fio 3.33: with nrfiles=3 the io logs of both tools name the same files in the
// same order, with the same offsets (roundrobin, roundrobin:2, sequential); random ends with every file done
// in both. Skips without fio.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

// "FILE_INDEX OFFSET" per io of a version 3 io log, files numbered in the order the log adds them.
std::vector<std::string> ios_by_file(const std::string& path) {
  std::ifstream in(path);
  std::map<std::string, int> index;
  std::vector<std::string> ios;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string time, file, action, offset;
    if (!(fields >> time >> file >> action)) continue;
    if (action == "add") index.emplace(file, static_cast<int>(index.size()));
    if ((action == "read" || action == "write") && fields >> offset) {
      ios.push_back(std::to_string(index[file]) + " " + offset);
    }
  }
  return ios;
}

class FileService : public ::testing::Test {
 protected:
  void SetUp() override { SLUICE_REQUIRE(kFio); }

  std::pair<std::vector<std::string>, std::vector<std::string>> both(const std::string& service,
                                                                     const std::string& rw) {
    auto args = [&](const std::string& dir, const std::string& log) {
      std::filesystem::create_directories(dir);
      return std::vector<std::string>{"--name=fs",
                                      "--directory=" + dir,
                                      "--nrfiles=3",
                                      "--filesize=16k",
                                      "--bs=4k",
                                      "--rw=" + rw,
                                      "--ioengine=psync",
                                      "--output-format=terse",
                                      "--file_service_type=" + service,
                                      "--write_iolog=" + log};
    };
    // Both tools append to an existing io log: each comparison starts from none.
    std::filesystem::remove(tmp_.file("fio.log"));
    std::filesystem::remove(tmp_.file("sluice.log"));
    for (const std::string program : {"fio", "sluice"}) {
      run_as(program, args(tmp_.file(program), tmp_.file(program + ".log")));
    }
    return {ios_by_file(tmp_.file("fio.log")), ios_by_file(tmp_.file("sluice.log"))};
  }

  TempDir tmp_;
};

TEST_F(FileService, RoundRobinAndSequentialMatchFio) {
  for (const std::string service : {"roundrobin", "roundrobin:2", "sequential"}) {
    const auto [fio, sluice] = both(service, "read");
    ASSERT_EQ(fio.size(), 12u) << service;
    EXPECT_EQ(sluice, fio) << service;
  }
}

TEST_F(FileService, RandomDoesEveryFileAsFio) {
  const auto [fio, sluice] = both("random", "write");
  ASSERT_EQ(fio.size(), 12u);
  std::map<char, int> fio_files, sluice_files;
  for (const auto& io : fio) ++fio_files[io[0]];
  for (const auto& io : sluice) ++sluice_files[io[0]];
  EXPECT_EQ(sluice_files, fio_files);  // 4 ios in each file
}

}  // namespace
}  // namespace sluice::testing
