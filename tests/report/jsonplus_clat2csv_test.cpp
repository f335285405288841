// fio's own json+ consumer, fio_jsonplus_clat2csv, reads sluice's json+ and agrees with its bins.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "report/reporters.h"
#include "report_test_support.h"
#include "support/temp_dir.h"

namespace sluice {
namespace {

constexpr const char* kScript = "/usr/bin/fio_jsonplus_clat2csv";
// Debian's python3, whose python3-six the script needs (as the other tests' scripts use it): a `python3`
// found first in PATH may be a version manager's shim, which took 0.2-0.7 s a start here, not 15 ms.
constexpr const char* kPython = "/usr/bin/python3";

int run_shell(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(JsonPlusClat2Csv, FiosScriptReadsAndValidatesOurBins) {
  if (access(kScript, X_OK) != 0) GTEST_SKIP() << kScript << " not installed (Debian package fio)";
  if (run_shell(std::string(kPython) + " -c 'import six' >/dev/null 2>&1") != 0) GTEST_SKIP() << "python3-six missing";
  testing::TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  RunResult run = test::make_run({test::make_job("a", 2000, 1000), test::make_job("b", 0, 300)});
  const std::string json_path = dir.path() + "/out.json";
  std::ofstream(json_path) << render_json_text(run, true);
  const std::string csv_stub = dir.path() + "/lat.csv";
  const std::string args = json_path + " " + csv_stub + " >/dev/null 2>&1";
  ASSERT_EQ(run_shell(std::string(kPython) + " " + kScript + " " + args), 0);
  EXPECT_TRUE(std::filesystem::exists(dir.path() + "/lat_job0.csv"));
  EXPECT_TRUE(std::filesystem::exists(dir.path() + "/lat_job1.csv"));
  EXPECT_EQ(run_shell(std::string(kPython) + " " + kScript + " --validate " + args), 0);
}

TEST(JsonPlusClat2Csv, CsvRowsCoverEveryBin) {
  if (access(kScript, X_OK) != 0) GTEST_SKIP() << kScript << " not installed (Debian package fio)";
  if (run_shell(std::string(kPython) + " -c 'import six' >/dev/null 2>&1") != 0) GTEST_SKIP() << "python3-six missing";
  testing::TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  JobResult job = test::make_job("a", 100, 0);
  job.settings.lat_percentiles = false;
  job.settings.slat_percentiles = false;
  const std::string json_path = dir.path() + "/out.json";
  std::ofstream(json_path) << render_json_text(test::make_run({job}), true);
  ASSERT_EQ(
      run_shell(std::string(kPython) + " " + kScript + " " + json_path + " " + dir.path() + "/c.csv >/dev/null 2>&1"),
      0);
  std::ifstream csv(dir.path() + "/c_job0.csv");
  std::string line;
  int rows = -1;  // header
  while (std::getline(csv, line)) ++rows;
  const nlohmann::json doc = render_json(test::make_run({job}), true);
  EXPECT_EQ(rows, static_cast<int>(doc.at("jobs").at(0).at("read").at("clat_ns").at("bins").size()));
}

}  // namespace
}  // namespace sluice
