// The splice engine next to fio 3.33's, by the system calls each tool makes (strace): a read is splice(2)s of at
// most 64 KiB from the file into a pipe, each followed by vmsplice(2)s out of the pipe into the buffer; a write
// vmsplices the buffer into the pipe and splices the pipe to the file. And its data: what it writes reads back
// verified, buffered and direct. The comparison skips without strace or fio.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

// Runs `program` (fio, or sluice run) under strace of splice and vmsplice; how many calls of each it made.
std::map<std::string, int> splice_calls(const std::string& program, std::vector<std::string> args, TempDir& tmp) {
  const TracedRun r = run_traced(program, args, "splice,vmsplice", tmp.file(program + ".splice.strace"));
  EXPECT_EQ(r.run.exit_code, 0) << program << ": " << describe(r.run);
  std::map<std::string, int> calls;
  for (const std::string& line : r.lines) {
    for (const char* call : {"vmsplice", "splice"}) {
      if (line.find(std::string(" ") + call + "(") != std::string::npos) {
        ++calls[call];
        break;
      }
    }
  }
  return calls;
}

class SpliceEngine : public ::testing::Test {
 protected:
  std::vector<std::string> job(const std::string& name, std::vector<std::string> extra) {
    std::vector<std::string> args = {"--name=s", "--filename=" + tmp_.file(name), "--size=1m", "--ioengine=splice",
                                     "--output-format=json"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }
  TempDir tmp_;
};

// fio's two quirks show in its counts: its first read's vmsplice fails (EFAULT, into a read-only mapping it
// tries first) and is made again, and its write buffers start 1,568 bytes into a page, so a 64 KiB write spans
// 17 pages and takes two vmsplice and two splice calls through a 16-page pipe. sluice's buffers are page
// aligned: one of each per 64 KiB.
TEST_F(SpliceEngine, MovesDataThroughAPipeAsFio) {
  SLUICE_REQUIRE(kStrace);
  SLUICE_REQUIRE(kFio);
  for (const std::string program : {"fio", "sluice"}) {
    const std::string file = program + ".data";
    const int fio_extra = program == "fio" ? 1 : 0;
    run_as(program, {"--name=lay", "--filename=" + tmp_.file(file), "--size=1m", "--rw=write"});
    // 4 KiB reads: one splice in and one vmsplice out each.
    auto calls = splice_calls(program, job(file, {"--rw=randread", "--bs=4k"}), tmp_);
    EXPECT_EQ(calls["splice"], 256) << program;
    EXPECT_EQ(calls["vmsplice"], 256 + fio_extra) << program;
    // 256 KiB reads: fio's 64 KiB pieces, 16 of each for 4 ios.
    calls = splice_calls(program, job(file, {"--rw=read", "--bs=256k"}), tmp_);
    EXPECT_EQ(calls["splice"], 16) << program;
    EXPECT_EQ(calls["vmsplice"], 16 + fio_extra) << program;
    // 64 KiB writes: the buffer vmspliced in, the pipe spliced out.
    calls = splice_calls(program, job(file, {"--rw=write", "--bs=64k"}), tmp_);
    EXPECT_EQ(calls["vmsplice"], program == "fio" ? 32 : 16) << program;
    EXPECT_EQ(calls["splice"], program == "fio" ? 32 : 16) << program;
  }
}

TEST_F(SpliceEngine, WhatItWritesReadsBackVerified) {
  for (const std::string direct : {"0", "1"}) {
    const RunOutput r = run_as("sluice", job("verified" + direct, {"--rw=randwrite", "--bs=16k", "--direct=" + direct,
                                                                   "--verify=crc32c", "--verify_state_save=0"}));
    const auto doc = parse_document(r.out);
    ASSERT_TRUE(doc);
    const auto& j = (*doc)["jobs"][0];
    EXPECT_EQ(j["error"].get<int>(), 0) << "direct=" << direct;
    EXPECT_EQ(j["write"]["io_bytes"].get<std::int64_t>(), 1 << 20) << "direct=" << direct;
    EXPECT_EQ(total_ios(j, "read"), 64u) << "direct=" << direct << ": the verify phase reads every block";
  }
}

}  // namespace
}  // namespace sluice::testing
