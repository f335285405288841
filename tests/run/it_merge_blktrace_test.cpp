// merge_blktrace_file end to end: two blktrace traces merged into one file that the job replays (every clone
// the same merged trace), with scalars and iterations, and the mistakes refused. fio 3.33 cannot be the
// reference here: every released fio up to 3.42 reads 8 bytes of each record while merging ("fio: iolog
// short read", an empty merged file); the expected order and counts follow fio's master.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/blktrace_writer.h"
#include "support/it_test_util.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

class MergeBlktraceRun : public ::testing::Test {
 protected:
  void SetUp() override {
    Trace reads;
    for (int i = 0; i < 4; ++i) reads.queue_read(1'000'000u * (i + 1), 8u * i, 4096);
    std::ofstream(tmp_.file("a.bt"), std::ios::binary) << reads.bytes();
    Trace writes;
    for (int i = 0; i < 3; ++i) writes.queue_write(1'500'000u * (i + 1), 1000 + 8u * i, 4096);
    std::ofstream(tmp_.file("b.bt"), std::ios::binary) << writes.bytes();
    std::ofstream(tmp_.file("data"), std::ios::binary) << std::string(1 << 20, 'D');
  }

  RunOutput run(const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"run",
                                     "--name=m",
                                     "--read_iolog=" + tmp_.file("a.bt") + ":" + tmp_.file("b.bt"),
                                     "--merge_blktrace_file=" + tmp_.file("merged.bt"),
                                     "--replay_redirect=" + tmp_.file("data"),
                                     "--output-format=json"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_binary(args);
  }

  TempDir tmp_;
};

TEST_F(MergeBlktraceRun, OneJobReplaysTheMergedTraces) {
  const RunOutput r = run({"--merge_blktrace_iters=2:1", "--merge_blktrace_scalars=100:50", "--numjobs=2"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(std::filesystem::file_size(tmp_.file("merged.bt")), 11u * 48);  // 4 reads twice, 3 writes
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  for (const auto& job : (*doc)["jobs"]) {  // each clone replays the whole merged trace
    EXPECT_EQ(total_ios(job, "read"), 8u);
    EXPECT_EQ(total_ios(job, "write"), 3u);
  }
}

TEST_F(MergeBlktraceRun, MistakesAreRefused) {
  const RunOutput count = run({"--merge_blktrace_scalars=50"});
  EXPECT_EQ(count.exit_code, 1);
  EXPECT_NE(count.err.find("merge_blktrace_scalars has 1 value(s) for 2 read_iolog trace(s)"), std::string::npos)
      << count.err;
  const RunOutput zero = run({"--merge_blktrace_iters=0:1"});
  EXPECT_EQ(zero.exit_code, 1);
  EXPECT_NE(zero.err.find("--merge_blktrace_iters=0:1: each value is a number from 1"), std::string::npos) << zero.err;
  std::ofstream(tmp_.file("a.bt"), std::ios::trunc) << "not a trace\n";
  const RunOutput text = run({});
  EXPECT_EQ(text.exit_code, 1);
  EXPECT_NE(text.err.find("a.bt: not a blktrace"), std::string::npos) << text.err;
}

}  // namespace
}  // namespace sluice::testing
