// disable_lat, disable_clat, disable_slat, disable_bw and gtod_reduce next to fio 3.33 in the per-io logs:
// a disabled latency gets no log file, disable_bw leaves the per-io bandwidth log empty, gtod_reduce (all of
// them) leaves the iops log empty too; averaged logs (log_avg_msec) keep their bandwidth and iops windows.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

// "lat" -> lines, for each PREFIX_KIND.1.log in the directory.
std::map<std::string, int> log_lines(const std::string& dir, const std::string& prefix) {
  std::map<std::string, int> lines;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix + "_", 0) != 0) continue;
    const std::string kind = name.substr(prefix.size() + 1, name.find('.') - prefix.size() - 1);
    std::ifstream in(entry.path());
    std::string line;
    int n = 0;
    while (std::getline(in, line)) ++n;
    lines[kind] = n;
  }
  return lines;
}

TEST(DisabledStatsLogs, SameLogFilesAndLinesAsFio) {
  SLUICE_REQUIRE(kFio);
  TempDir tmp;
  const std::string data = tmp.file("data");
  run_as("sluice", {"--name=lay", "--filename=" + data, "--size=1m", "--rw=write"});
  for (const char* option : {"disable_lat", "disable_clat", "disable_slat", "disable_bw", "gtod_reduce"}) {
    std::map<std::string, std::map<std::string, int>> seen;
    for (const std::string program : {"fio", "sluice"}) {
      const std::string dir = tmp.file(std::string(option) + "." + program);
      std::filesystem::create_directory(dir);
      const std::string prefix = dir + "/L";
      run_as(program, {"--name=x", "--filename=" + data, "--size=1m", "--bs=4k", "--rw=randread", "--ioengine=libaio",
                       "--" + std::string(option) + "=1", "--write_lat_log=" + prefix, "--write_bw_log=" + prefix,
                       "--write_iops_log=" + prefix, "--output-format=json"});
      seen[program] = log_lines(dir, "L");
    }
    EXPECT_EQ(seen["sluice"], seen["fio"]) << option;
  }
}

TEST(DisabledStatsLogs, AveragedWindowsStay) {
  TempDir tmp;
  const std::string prefix = tmp.file("A");
  run_as("sluice", {"--name=x", "--filename=" + tmp.file("data"), "--size=16m", "--bs=4k", "--rw=randread",
                    "--gtod_reduce=1", "--write_bw_log=" + prefix, "--write_iops_log=" + prefix, "--log_avg_msec=100",
                    "--runtime=1", "--time_based", "--output-format=json"});
  const std::map<std::string, int> lines = log_lines(tmp.path(), "A");
  EXPECT_GE(lines.at("bw"), 8);
  EXPECT_GE(lines.at("iops"), 8);
}

}  // namespace
}  // namespace sluice::testing
