// End-to-end: build/sluice iozone on small matrices in a temporary directory.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

using ::testing::HasSubstr;

bool empty_dir(const std::string& path) { return std::filesystem::is_empty(path); }

// The data rows of the report: lines whose first 16 columns are a right-aligned number.
std::vector<std::string> rows_of(const std::string& out) {
  std::vector<std::string> rows;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    if (line.size() >= 24 && std::isdigit(static_cast<unsigned char>(line[15])) &&
        std::isdigit(static_cast<unsigned char>(line[23])) && line.find_first_not_of(' ') < 16 &&
        line.find('"') == std::string::npos) {
      rows.push_back(line);
    }
  }
  return rows;
}

TEST(ItIozone, AutoMatrixUpTo1MiBHasIozonesRowsAndRemovesItsFile) {
  TempDir dir;
  const RunOutput r = run_binary({"iozone", "-a", "-g", "1m", "-f", dir.file("iozone.tmp")});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("\tAuto Mode\n\tUsing maximum file size of 1024 kilobytes.\n"));
  EXPECT_THAT(r.out, HasSubstr("\tOutput is in Kbytes/sec\n"));
  EXPECT_THAT(r.out, HasSubstr("              KB  reclen   write rewrite    read    reread"));
  const std::vector<std::string> rows = rows_of(r.out);
  ASSERT_EQ(rows.size(), 5u + 6 + 7 + 8 + 9) << r.out;
  EXPECT_EQ(rows.front().substr(0, 24), "              64       4");
  EXPECT_EQ(rows.back().substr(0, 24), "            1024    1024");
  for (const std::string& row : rows) EXPECT_EQ(row.size(), 135u) << row;
  EXPECT_THAT(r.out, HasSubstr("\niozone test complete.\n"));
  EXPECT_THAT(r.out, HasSubstr("sluice: page cache per file size"));
  EXPECT_TRUE(empty_dir(dir.path()));
}

TEST(ItIozone, DirectWriteAndReadOnlyFillTheirColumns) {
  TempDir dir;
  const RunOutput r =
      run_binary({"iozone", "-i", "0", "-i", "1", "-s", "256k", "-r", "4k", "-I", "-f", dir.file("iozone.tmp")});
  if (r.exit_code != 0 && r.err.find("O_DIRECT") != std::string::npos) GTEST_SKIP() << "no O_DIRECT here: " << r.err;
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("\tO_DIRECT feature enabled\n"));
  const std::vector<std::string> rows = rows_of(r.out);
  ASSERT_EQ(rows.size(), 1u) << r.out;
  EXPECT_EQ(rows[0].substr(0, 24), "             256       4");
  std::istringstream fields(rows[0].substr(24, 34));  // write, rewrite, read, reread
  std::uint64_t value = 0;
  int n = 0;
  while (fields >> value) n += value > 0 ? 1 : 0;
  EXPECT_EQ(n, 4) << rows[0];
  EXPECT_EQ(rows[0].find_first_not_of(' ', 58), std::string::npos) << rows[0];  // tests 2-7 not run: blank
  EXPECT_THAT(r.out, HasSubstr("direct  tests 0-5 bypass the page cache"));
  EXPECT_TRUE(empty_dir(dir.path()));
}

TEST(ItIozone, JsonRateIsBytesOverSecondsInKiB) {
  TempDir dir;
  const RunOutput r = run_binary({"iozone", "-i0", "-i1", "-i2", "-s", "512k", "-r", "16k", "-e", "-f",
                                  dir.file("iozone.tmp"), "--output-format=json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  const nlohmann::json& io = (*doc)["sluice"]["iozone"];
  ASSERT_EQ(io["cells"].size(), 1u);
  const nlohmann::json& tests = io["cells"][0]["tests"];
  for (const char* key : {"write", "rewrite", "read", "reread", "random_read", "random_write"}) {
    ASSERT_TRUE(tests.contains(key)) << key;
    const nlohmann::json& t = tests[key];
    EXPECT_EQ(t["bytes"], 512 * 1024) << key;
    EXPECT_EQ(t["records"], 32) << key;
    const double seconds = t["seconds"].get<double>();
    ASSERT_GT(seconds, 0) << key;
    const auto kbps = static_cast<std::uint64_t>(std::floor(512.0 * 1024 / seconds)) / 1024;
    EXPECT_EQ(t["kB_per_s"].get<std::uint64_t>(), kbps) << key;
    EXPECT_GT(t["latency_ns"]["percentile"]["99.000000"].get<std::uint64_t>(), 0u) << key;
  }
  EXPECT_FALSE(tests.contains("fwrite"));
}

TEST(ItIozone, ExcelTablesAndTheBFileAndCsv) {
  TempDir dir;
  const std::string xls = dir.file("out.xls");
  const RunOutput r = run_binary({"iozone", "-Ra", "-g", "128k", "-i", "0", "-b", xls, "-f", dir.file("iozone.tmp")});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("\nExcel output is below:\n\n\"Writer report\"\n        \"4\"  \"8\"  \"16\"  \"32\""
                               "  \"64\"  \"128\"  \"256\""));
  EXPECT_THAT(r.out, HasSubstr("\n\"Re-writer report\"\n"));
  std::ifstream in(xls);
  const std::string csv((std::istreambuf_iterator<char>(in)), {});
  EXPECT_THAT(csv, HasSubstr("\"Writer report\"\n,4,8,16,32,64,128,256,"));
  EXPECT_THAT(csv, HasSubstr("\n64,"));
  std::filesystem::remove(xls);
  const RunOutput c =
      run_binary({"iozone", "-a", "-g", "128k", "-i", "0", "--format=csv", "-f", dir.file("iozone.tmp")});
  ASSERT_EQ(c.exit_code, 0) << describe(c);
  EXPECT_THAT(c.out, HasSubstr("file_kb,reclen_kb,write,rewrite,read,"));
  EXPECT_THAT(c.out, HasSubstr("\n128,128,"));
  EXPECT_TRUE(empty_dir(dir.path()));
}

TEST(ItIozone, BadInputIsRefusedBeforeAnythingIsWritten) {
  TempDir dir;
  const std::string file = dir.file("iozone.tmp");
  const std::pair<std::vector<std::string>, std::string> kCases[] = {
      {{"iozone", "-s", "64k", "-r", "128k", "-f", file}, "is larger than the file"},
      {{"iozone", "-t", "4", "-f", file}, "-t: throughput mode with N processes is an option of the original iozone"},
      {{"iozone", "-s", "100000g", "-f", file}, "does not fit in the"},
      {{"iozone", "-i", "1", "-f", file}, "add -i 0"},
      {{"iozone", "-s", "12x", "-f", file}, "-s 12x: not an iozone size"},
  };
  for (const auto& [args, message] : kCases) {
    const RunOutput r = run_binary(args);
    EXPECT_EQ(r.exit_code, 1) << describe(r);
    EXPECT_THAT(r.err, HasSubstr(message)) << args[1];
    EXPECT_TRUE(empty_dir(dir.path())) << args[1];
  }
  std::ofstream(dir.file("mine")) << "x";
  const RunOutput r = run_binary({"iozone", "-f", dir.file("mine")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("the file exists"));
}

TEST(ItIozone, InterruptedRunKeepsWhatItMeasuredAndRemovesItsFile) {
  TempDir dir;
  RunOptions o;
  o.signal_after = std::chrono::milliseconds(300);
  const RunOutput r = run_binary(
      {"iozone", "-a", "-z", "-s", "64m", "-i", "0", "-i", "1", "-f", dir.file("iozone.tmp"), "--output-format=json"},
      o);
  ASSERT_EQ(r.exit_code, 130) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  EXPECT_TRUE((*doc)["sluice"]["iozone"]["interrupted"].get<bool>());
  EXPECT_LT((*doc)["sluice"]["iozone"]["cells"].size(), 13u);
  EXPECT_TRUE(empty_dir(dir.path()));
}

}  // namespace
}  // namespace sluice::testing
