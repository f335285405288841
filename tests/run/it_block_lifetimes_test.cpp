// block_error_percentiles end to end: on a loop device (trims as BLKDISCARD), and on faultfs, whose injected trim
// error ends one block's life. fio 3.33 cannot be compared: once a block is trimmed its report aborts
// ("stat.c:792: block_state_category: Assertion `0' failed": its sort reads the 32-bit block words as 64-bit
// ones, fio's master too), and on a regular file its trims fail (ENOTTY).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <string>
#include <vector>

#include "support/faultfs_mount.h"
#include "support/it_test_util.h"
#include "support/loop_device.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

nlohmann::json block_of(const RunOutput& r) {
  const auto doc = parse_document(r.out);
  if (!doc || !(*doc)["jobs"][0].contains("block")) return nlohmann::json();
  return (*doc)["jobs"][0]["block"];
}

// Three passes of random trims over 16 blocks: each block trimmed three times.
TEST(BlockLifetimes, EveryBlockCountsItsTrims) {
  TempDir tmp;
  LoopDevice loop;
  const std::string why = loop.attach(tmp.file("image"), 1 << 20);
  if (!why.empty()) GTEST_SKIP() << why;
  for (const std::string program : {"sluice"}) {
    const RunOutput r =
        run_as(program, {"--name=t", "--filename=" + loop.path(), "--rw=randtrim", "--bs=64k", "--size=1m", "--loops=3",
                         "--block_error_percentiles=1", "--percentile_list=1:50:99", "--output-format=json"});
    const nlohmann::json block = block_of(r);
    ASSERT_TRUE(block.is_object()) << program << ": " << r.out.substr(0, 2000);
    EXPECT_EQ(block["states"]["trimmed"].get<int>(), 16) << program;
    EXPECT_EQ(block["states"]["trim failure"].get<int>(), 0) << program;
    EXPECT_EQ(block["percentiles"]["50.000000"].get<int>(), 3) << program;
  }
  const RunOutput text = run_as("sluice", {"--name=t", "--filename=" + loop.path(), "--rw=trim", "--bs=64k",
                                           "--size=1m", "--block_error_percentiles=1", "--percentile_list=50"});
  EXPECT_NE(text.out.find("  block lifetime percentiles :\n   | 50.00th=1\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("        states               : unwritten=0, trimmed=16, written=0, trim failure=0, "
                          "write failure=0\n"),
            std::string::npos)
      << text.out;
}

// faultfs fails every trim of the fourth block: its life ends there, after no trim; the others go on.
TEST(BlockLifetimes, AFailedTrimEndsItsBlock) {
  TempDir tmp;
  const std::string backing = tmp.file("backing");
  ::mkdir(backing.c_str(), 0755);
  FaultFsMount fs(backing, tmp.file("mnt"), {"trim:eio:at=196608"});
  if (!fs.usable()) GTEST_SKIP() << fs.skip_reason();
  const std::string file = tmp.file("mnt") + "/f";
  run_as("sluice", {"--name=lay", "--filename=" + file, "--size=1m", "--rw=write", "--bs=64k"});
  const RunOutput r = run_as("sluice", {"--name=t", "--filename=" + file, "--rw=trim", "--bs=64k", "--size=1m",
                                        "--loops=2", "--continue_on_error=all", "--block_error_percentiles=1",
                                        "--percentile_list=50:100", "--output-format=json"});
  const nlohmann::json block = block_of(r);
  ASSERT_TRUE(block.is_object()) << r.out.substr(0, 2000);
  EXPECT_EQ(block["states"]["trimmed"].get<int>(), 15);
  EXPECT_EQ(block["states"]["trim failure"].get<int>(), 1);
  EXPECT_EQ(block["percentiles"]["50.000000"].get<int>(), 2);
  EXPECT_EQ(block["percentiles"]["100.000000"].get<int>(), 0);  // the failed block sorts last
}

TEST(BlockLifetimes, OneFilePerJob) {
  TempDir tmp;
  expect_run_refused(
      {"--name=t", "--directory=" + tmp.path(), "--nrfiles=2", "--size=1m", "--rw=trim", "--block_error_percentiles=1"},
      "one file per job");
}

}  // namespace
}  // namespace sluice::testing
