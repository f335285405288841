// fio's log_store_compressed, --inflate-log and log_hist_coarseness next to fio 3.33: a compressed log of
// either tool inflates to the same text in both (fio --inflate-log and sluice fio --inflate-log), one line
// per io; histogram logs with a coarseness have fio's number of bins. Skips without fio.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

std::vector<std::string> split_fields(const std::string& line) {
  std::vector<std::string> fields;
  std::istringstream in(line);
  std::string field;
  while (std::getline(in, field, ',')) fields.push_back(field.substr(field.find_first_not_of(' ')));
  return fields;
}

class LogStore : public ::testing::Test {
 protected:
  void SetUp() override {
    SLUICE_REQUIRE(kFio);
    std::ofstream out(tmp_.file("f"), std::ios::binary);
    out << std::string(1 << 20, 'l');
  }

  // Runs a 256-read job with `program` writing its logs under PREFIX in the temporary directory.
  void run_job(const std::string& program, const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"--name=l",         "--filename=" + tmp_.file("f"), "--rw=randread", "--bs=4k",
                                     "--ioengine=psync", "--output-format=terse"};
    args.insert(args.end(), extra.begin(), extra.end());
    RunOptions options;
    options.cwd = tmp_.path();
    run_as(program, args, options);
  }

  std::string inflate(const std::string& program, const std::string& file) {
    RunOptions options;
    std::vector<std::string> args = {"--inflate-log=" + file};
    if (program == "fio")
      options.program = "fio";
    else
      args.insert(args.begin(), "fio");
    const RunOutput r = run_binary(args, options);
    EXPECT_EQ(r.exit_code, 0) << program << ": " << describe(r);
    return r.out;
  }

  TempDir tmp_;
};

TEST_F(LogStore, SluicesCompressedLogInflatesInFio) {
  run_job("sluice", {"--write_lat_log=s", "--log_store_compressed=1", "--log_compression=4k", "--log_offset=1"});
  const std::string fz = tmp_.file("s_clat.1.log.fz");
  ASSERT_TRUE(std::filesystem::exists(fz));
  EXPECT_FALSE(std::filesystem::exists(tmp_.file("s_clat.1.log")));
  const std::string by_fio = inflate("fio", fz);
  EXPECT_EQ(inflate("sluice", fz), by_fio);
  const std::vector<std::string> lines = lines_of(by_fio);
  ASSERT_EQ(lines.size(), 256u);  // one line per read, over many 4 KiB zlib streams
  std::set<std::uint64_t> offsets;
  for (const std::string& line : lines) {
    const std::vector<std::string> f = split_fields(line);
    ASSERT_EQ(f.size(), 6u) << line;
    EXPECT_EQ(f[2], "0") << line;     // a read
    EXPECT_EQ(f[3], "4096") << line;  // its size
    offsets.insert(std::stoull(f[4]));
  }
  EXPECT_EQ(offsets.size(), 256u);  // every block once: the offset column survived the round trip
}

TEST_F(LogStore, FiosCompressedLogInflatesInSluiceAsInFio) {
  run_job("fio", {"--write_lat_log=f", "--log_store_compressed=1", "--log_compression=4k"});
  const std::string fz = tmp_.file("f_lat.1.log.fz");
  ASSERT_TRUE(std::filesystem::exists(fz));
  const std::string by_fio = inflate("fio", fz);
  EXPECT_EQ(lines_of(by_fio).size(), 256u);
  EXPECT_EQ(inflate("sluice", fz), by_fio);
}

TEST_F(LogStore, InflatingSomethingElseIsAClearError) {
  std::ofstream(tmp_.file("text.log")) << "0, 1, 0, 4096, 0\n";
  const RunOutput r = run_binary({"fio", "--inflate-log=" + tmp_.file("text.log")});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("not a compressed fio log"), std::string::npos) << r.err;
}

TEST_F(LogStore, HistogramCoarsenessGivesFiosBins) {
  for (const std::string program : {"fio", "sluice"}) {
    // direct=1: the reads take long enough to fill whole 1 ms windows (fio writes no line for a window that
    // is not over when the job ends, sluice writes that last one too).
    run_job(program, {"--write_hist_log=" + program, "--log_hist_msec=1", "--log_hist_coarseness=3", "--direct=1"});
    std::ifstream in(tmp_.file(program + "_clat_hist.1.log"));
    std::uint64_t ios = 0;
    int lines = 0;
    for (std::string line; std::getline(in, line); ++lines) {
      const std::vector<std::string> f = split_fields(line);
      EXPECT_EQ(f.size(), 3u + 1856u / 8u) << program;
      for (std::size_t i = 3; i < f.size(); ++i) ios += std::stoull(f[i]);
    }
    EXPECT_GT(lines, 0) << program;
    EXPECT_GT(ios, 0u) << program;
    EXPECT_LE(ios, 256u) << program;
    if (program == "sluice") {
      EXPECT_EQ(ios, 256u);
    }
  }
}

}  // namespace
}  // namespace sluice::testing
