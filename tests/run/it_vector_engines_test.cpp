// pvsync, pvsync2 and vsync next to fio 3.33, by the system calls each tool makes (strace): pvsync issues
// preadv/pwritev, pvsync2 preadv2/pwritev2 with RWF_HIPRI on hipri_percentage of the ios and RWF_NOWAIT with
// nowait, vsync one readv per submitted batch of sequential ios (iodepth_batch_submit=4: 64 calls for 256
// reads) and one per io by default; libaio and io_uring pass nowait on too. Skips without strace or fio.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

struct Calls {
  int count = 0;   // lines naming the call
  int hipri = 0;   // of those, with RWF_HIPRI
  int nowait = 0;  // with RWF_NOWAIT
};

// Runs `program` under strace (reads and writes of the vector kinds only) and counts `call`'s lines.
Calls traced(const std::string& program, std::vector<std::string> args, const std::string& call, TempDir& tmp) {
  const TracedRun r =
      run_traced(program, args, "readv,writev,preadv,pwritev,preadv2,pwritev2", tmp.file(program + ".strace"));
  EXPECT_EQ(r.run.exit_code, 0) << program << ": " << describe(r.run);
  Calls calls;
  for (const std::string& line : r.lines) {
    if (line.find(" " + call + "(") == std::string::npos) continue;
    ++calls.count;
    calls.hipri += line.find("RWF_HIPRI") != std::string::npos ? 1 : 0;
    calls.nowait += line.find("RWF_NOWAIT") != std::string::npos ? 1 : 0;
  }
  return calls;
}

class VectorEngines : public ::testing::Test {
 protected:
  void SetUp() override {
    SLUICE_REQUIRE(kStrace);
    SLUICE_REQUIRE(kFio);
    for (const std::string program : {"fio", "sluice"}) {
      // Written back before the tests: a direct read of a dirty page would have to wait for it (EAGAIN with
      // nowait).
      run_as(program, {"--name=lay", "--filename=" + file(program), "--size=1m", "--rw=write", "--end_fsync=1"});
    }
  }
  std::string file(const std::string& program) { return tmp_.file(program + ".data"); }
  std::vector<std::string> job(const std::string& program, std::vector<std::string> extra) {
    std::vector<std::string> args = {"--name=v", "--filename=" + file(program), "--size=1m", "--bs=4k",
                                     "--output-format=json"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }
  TempDir tmp_;
};

TEST_F(VectorEngines, PvsyncIssuesPreadvAndPwritevAsFio) {
  for (const std::string program : {"fio", "sluice"}) {
    const Calls reads = traced(program, job(program, {"--ioengine=pvsync", "--rw=randread"}), "preadv", tmp_);
    EXPECT_EQ(reads.count, 256) << program;
    const Calls writes = traced(program, job(program, {"--ioengine=pvsync", "--rw=randwrite"}), "pwritev", tmp_);
    EXPECT_EQ(writes.count, 256) << program;
  }
}

TEST_F(VectorEngines, Pvsync2HipriOnItsShareOfTheIosAsFio) {
  for (const std::string program : {"fio", "sluice"}) {
    const Calls calls = traced(
        program,
        job(program, {"--ioengine=pvsync2", "--rw=randread", "--direct=1", "--hipri=1", "--hipri_percentage=50"}),
        "preadv2", tmp_);
    EXPECT_EQ(calls.count, 256) << program;
    EXPECT_NEAR(calls.hipri, 128, 32) << program;  // fio drew 129 here
    const Calls all = traced(program, job(program, {"--ioengine=pvsync2", "--rw=randwrite", "--direct=1", "--hipri=1"}),
                             "pwritev2", tmp_);
    EXPECT_EQ(all.hipri, 256) << program;  // hipri_percentage defaults to 100
  }
}

TEST_F(VectorEngines, NowaitFlagsEveryIoOfEachEngine) {
  for (const std::string program : {"fio", "sluice"}) {
    // direct ios on a laid-out file do not block on the page cache, so none fails with EAGAIN here.
    const Calls calls = traced(
        program, job(program, {"--ioengine=pvsync2", "--rw=randread", "--direct=1", "--nowait=1"}), "preadv2", tmp_);
    EXPECT_EQ(calls.nowait, 256) << program;
  }
}

TEST_F(VectorEngines, VsyncMergesASubmittedBatchOfSequentialIosAsFio) {
  for (const std::string program : {"fio", "sluice"}) {
    EXPECT_EQ(
        traced(program, job(program, {"--ioengine=vsync", "--rw=read", "--iodepth=4", "--iodepth_batch_submit=4"}),
               "readv", tmp_)
            .count,
        64)
        << program;
    EXPECT_EQ(traced(program, job(program, {"--ioengine=vsync", "--rw=read", "--iodepth=4"}), "readv", tmp_).count,
              256)
        << program;  // fio's default iodepth_batch_submit=1: nothing to merge
    const Calls writes =
        traced(program, job(program, {"--ioengine=vsync", "--rw=write", "--iodepth=8", "--iodepth_batch_submit=8"}),
               "writev", tmp_);
    EXPECT_EQ(writes.count, 32) << program;
  }
}

TEST_F(VectorEngines, VsyncWritesWhatItsReadsFind) {
  // Random writes (merged where neighbours meet in a batch), then the verify phase reads every block back.
  const RunOutput r =
      run_as("sluice", job("sluice", {"--ioengine=vsync", "--rw=randwrite", "--iodepth=8", "--iodepth_batch_submit=8",
                                      "--verify=crc32c", "--verify_state_save=0"}));
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  EXPECT_EQ((*doc)["jobs"][0]["error"].get<int>(), 0);
  EXPECT_EQ((*doc)["jobs"][0]["write"]["io_bytes"].get<std::int64_t>(), 1 << 20);
  EXPECT_EQ((*doc)["jobs"][0]["read"]["total_ios"].get<std::int64_t>(), 256);
}

}  // namespace
}  // namespace sluice::testing
