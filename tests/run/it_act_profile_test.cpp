// --profile=act next to fio 3.33 on a file: the same jobs at the same rates (reads of 1,536 bytes at 2,000/s
// over the read jobs, 128 KiB writes at 12/s), and fio's table of the hourly slices with its verdict, printed
// before the jobs' sections. A 3-second test: one slice.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

// The read and write IOPS of the act jobs (group_reporting: one section).
std::pair<long, long> act_iops(const std::string& out) {
  std::smatch m;
  static const std::regex kReads(R"(read: IOPS=(\d+),)");
  static const std::regex kWrites(R"(write: IOPS=(\d+),)");
  long reads = 0, writes = 0;
  if (std::regex_search(out, m, kReads)) reads = std::stol(m[1]);
  if (std::regex_search(out, m, kWrites)) writes = std::stol(m[1]);
  return {reads, writes};
}

TEST(ActProfile, RunsFiosJobsAndPrintsItsTable) {
  TempDir tmp;
  for (const std::string program : {"fio", "sluice"}) {
    if (program == "fio" && !::sluice::testing::have(::sluice::testing::Feature::kFio)) continue;
    // A short relative name: fio 3.33's act aborts on a long device path ("buffer overflow detected").
    const std::string file = program + ".act";
    RunOptions here;
    here.cwd = tmp.path();
    run_as(program, {"--name=lay", "--filename=" + file, "--size=64m", "--rw=write", "--bs=1m"}, here);
    const RunOutput r = run_as(
        program, {"--profile=act", "--device-names=" + file, "--test-duration=3", "--threads-per-queue=2"}, here);
    const std::size_t table = r.out.find(" slice\t  1\t  8\t 64\t  1\t  8\t 64\n");
    ASSERT_NE(table, std::string::npos) << program << ":\n" << r.out.substr(0, 3000);
    EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\n    1\t\d+\.\d\d\t\d+\.\d\d\t\d+\.\d\d\t)"))) << program;
    EXPECT_NE(r.out.find("\nact: test complete, device(s): "), std::string::npos) << program;
    EXPECT_LT(table, r.out.find("act-read-" + file + ": (groupid=0, jobs=3)")) << program << ": the table comes first";
    const auto [reads, writes] = act_iops(r.out);
    EXPECT_NEAR(static_cast<double>(reads), 2000.0, 200.0) << program;
    EXPECT_NEAR(static_cast<double>(writes), 12.0, 2.0) << program;
  }
}

TEST(ActProfile, TheJsonCarriesTheSlices) {
  TempDir tmp;
  const std::string file = tmp.file("act");
  run_as("sluice", {"--name=lay", "--filename=" + file, "--size=16m", "--rw=write", "--bs=1m"});
  const RunOutput r = run_as("sluice", {"--profile=act", "--device-names=" + file, "--test-duration=1",
                                        "--threads-per-queue=1", "--output-format=json"});
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  const auto& act = (*doc)["sluice"]["act"];
  ASSERT_EQ(act["slices"].size(), 1u);
  EXPECT_GT(act["slices"][0]["ios"].get<std::uint64_t>(), 1000u);
  EXPECT_TRUE(act["passed"].is_boolean());
}

}  // namespace
}  // namespace sluice::testing
