// sluice's fio-format logs next to fio 3.33's own: the same files, the same columns, and fio's log tools
// read them whenever they read fio's. Skips when fio (or python3 for fiologparser.py) is missing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/temp_dir.h"

namespace {

namespace fs = std::filesystem;

bool have(const std::string& tool) { return std::system(("command -v " + tool + " >/dev/null 2>&1").c_str()) == 0; }

int run(const std::string& command) { return std::system((command + " >/dev/null 2>&1").c_str()); }

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> fields_of(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream s(line);
  for (std::string field; std::getline(s, field, ',');) fields.push_back(field);
  return fields;
}

std::vector<std::string> log_names(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

const std::string kOptions =
    " --name=x --ioengine=null --rw=randrw --size=256k --write_lat_log=x --write_iops_log=x --write_bw_log=x";

class LogsVsFio : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!have("fio")) GTEST_SKIP() << "fio is not installed";
    fs::create_directories(fio_dir());
    fs::create_directories(sluice_dir());
  }
  void run_both(const std::string& extra) {
    ASSERT_EQ(run("cd " + fio_dir() + " && fio" + kOptions + extra), 0);
    ASSERT_EQ(run("cd " + sluice_dir() + " && " + SLUICE_BINARY + " run" + kOptions + extra), 0);
  }
  std::string fio_dir() const { return dir_.file("fio"); }
  std::string sluice_dir() const { return dir_.file("sluice"); }

  sluice::testing::TempDir dir_;
};

TEST_F(LogsVsFio, SameLogFiles) {
  run_both("");
  EXPECT_EQ(log_names(sluice_dir()), log_names(fio_dir()));
}

TEST_F(LogsVsFio, PerIoLinesMatchFioExceptValues) {
  run_both("");
  for (const char* name : {"x_lat.1.log", "x_clat.1.log", "x_bw.1.log", "x_iops.1.log"}) {
    const auto fio = lines_of(fio_dir() + "/" + name);
    const auto ours = lines_of(sluice_dir() + "/" + name);
    ASSERT_EQ(ours.size(), fio.size()) << name;
    ASSERT_FALSE(ours.empty()) << name;
    const auto fio_fields = fields_of(fio[0]);
    const auto our_fields = fields_of(ours[0]);
    ASSERT_EQ(our_fields.size(), fio_fields.size()) << name;
    EXPECT_EQ(our_fields[3], fio_fields[3]) << name << ": block size";
    EXPECT_EQ(our_fields[4], fio_fields[4]) << name << ": priority";
  }
}

TEST_F(LogsVsFio, AveragedLinesHaveFioColumns) {
  run_both(" --time_based --runtime=1 --log_avg_msec=100");
  const auto fio = lines_of(fio_dir() + "/x_iops.1.log");
  const auto ours = lines_of(sluice_dir() + "/x_iops.1.log");
  ASSERT_FALSE(fio.empty());
  ASSERT_FALSE(ours.empty());
  EXPECT_EQ(fields_of(ours[0]).size(), fields_of(fio[0]).size());
  EXPECT_EQ(fields_of(ours[0])[3], " 0") << "averaged lines have block size 0";
}

TEST_F(LogsVsFio, FioLogParserReadsOursWheneverItReadsFios) {
  const char* packaged_parser = "/usr/share/doc/fio/fiologparser.py.gz";
  if (!fs::exists(packaged_parser) || !have("python3")) GTEST_SKIP() << "fiologparser.py or python3 is missing";
  run_both(" --time_based --runtime=1 --log_avg_msec=100");
  const std::string script = dir_.file("fiologparser.py");
  ASSERT_EQ(std::system((std::string("gzip -dc ") + packaged_parser + " > " + script).c_str()), 0);
  ASSERT_GT(fs::file_size(script), 0u);
  const std::string parse = "python3 " + script + " -s ";
  if (run(parse + fio_dir() + "/x_iops.1.log") != 0) {
    GTEST_SKIP() << "this fiologparser.py cannot read fio's own logs (it expects 4 columns; fio 3.33 writes 5)";
  }
  EXPECT_EQ(run(parse + sluice_dir() + "/x_iops.1.log"), 0);
}

}  // namespace
