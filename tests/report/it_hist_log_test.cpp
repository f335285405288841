// fio's own fiologparser_hist.py (Debian's fio package) reads sluice's histogram logs, and the columns
// match fio 3.33's hist log. Skips when the script, a python3 with pandas, or fio is missing.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "support/machine_features.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace {

namespace fs = std::filesystem;
using sluice::testing::run_binary;

constexpr const char* kScript = "/usr/share/doc/fio/fiologparser_hist.py.gz";

// A python3 that has pandas (fiologparser_hist.py needs it): Debian's first, then the one on PATH.
std::string python_with_pandas() {
  for (const char* python : {"/usr/bin/python3", "python3"}) {
    if (std::system((std::string(python) + " -c 'import pandas' >/dev/null 2>&1").c_str()) == 0) return python;
  }
  return "";
}

std::size_t columns_of_first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line.empty() ? 0 : static_cast<std::size_t>(std::count(line.begin(), line.end(), ',')) + 1;
}

TEST(HistLogTools, FiologparserHistReadsSluicesLog) {
  const std::string python = python_with_pandas();
  if (!fs::exists(kScript) || python.empty()) GTEST_SKIP() << "fiologparser_hist.py or python3-pandas is missing";
  sluice::testing::TempDir dir;
  const std::string script = dir.file("fiologparser_hist.py");
  ASSERT_EQ(std::system(("zcat " + std::string(kScript) + " > " + script).c_str()), 0);
  const auto run = run_binary({"run", "--no-status", "--name=h", "--ioengine=null", "--rw=randread", "--size=4m",
                               "--write_hist_log=" + dir.file("h"), "--log_hist_msec=1000"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string log = dir.file("h_clat_hist.1.log");
  const std::string out = dir.file("parsed.csv");
  ASSERT_EQ(std::system((python + " " + script + " " + log + " > " + out + " 2>/dev/null").c_str()), 0);
  std::ifstream in(out);
  std::string header, row;
  std::getline(in, header);
  std::getline(in, row);
  EXPECT_NE(header.find("samples"), std::string::npos) << header;
  std::stringstream fields(row);
  std::string end_time, samples;
  std::getline(fields, end_time, ',');
  std::getline(fields, samples, ',');
  EXPECT_EQ(std::stoull(samples), 1024u) << row;  // 4 MiB of 4 KiB reads
}

TEST(HistLogTools, SameColumnsAsFio) {
  SLUICE_REQUIRE(kFio);
  sluice::testing::TempDir dir;
  const std::vector<std::string> job = {"--name=h",     "--ioengine=null", "--rw=randread",      "--size=4m",
                                        "--time_based", "--runtime=300ms", "--log_hist_msec=100"};
  sluice::testing::RunOptions fio;
  fio.program = "fio";
  std::vector<std::string> fio_args = job;
  fio_args.push_back("--write_hist_log=" + dir.file("fio"));
  ASSERT_EQ(run_binary(fio_args, fio).exit_code, 0);
  std::vector<std::string> sluice_args = {"run", "--no-status"};
  sluice_args.insert(sluice_args.end(), job.begin(), job.end());
  sluice_args.push_back("--write_hist_log=" + dir.file("sluice"));
  ASSERT_EQ(run_binary(sluice_args).exit_code, 0);
  const std::size_t fio_columns = columns_of_first_line(dir.file("fio_clat_hist.1.log"));
  if (fio_columns == 0) GTEST_SKIP() << "fio wrote no histogram line for so short a job";
  EXPECT_EQ(columns_of_first_line(dir.file("sluice_clat_hist.1.log")), fio_columns);
}

}  // namespace
