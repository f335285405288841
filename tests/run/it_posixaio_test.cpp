// ioengine=posixaio next to fio 3.33: the same job moves the same ios and bytes in both tools, keeps iodepth
// ios in flight, flushes with aio_fsync on fsync=N's schedule, and its writes verify. Skips without fio.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

class Posixaio : public ::testing::Test {
 protected:
  void SetUp() override {
    SLUICE_REQUIRE(kFio);
    std::ofstream out(tmp_.file("f"), std::ios::binary);
    out << std::string(4 << 20, 'p');
  }

  // The first job of the JSON report of `program` running `job` on the test file with posixaio.
  nlohmann::json job_of(const std::string& program, std::vector<std::string> job) {
    std::vector<std::string> args = {"--name=p", "--filename=" + tmp_.file("f"), "--ioengine=posixaio",
                                     "--output-format=json"};
    args.insert(args.end(), job.begin(), job.end());
    const RunOutput r = run_as(program, args);
    const std::size_t start = r.out.find("{\n");
    const auto doc = parse_document(start == std::string::npos ? r.out : r.out.substr(start));
    if (!doc) return {};
    return (*doc)["jobs"][0];
  }

  TempDir tmp_;
};

TEST_F(Posixaio, RandomReadsMatchFioAtDepth) {
  for (const std::string program : {"fio", "sluice"}) {
    const nlohmann::json job = job_of(program, {"--rw=randread", "--bs=4k", "--direct=1", "--iodepth=8"});
    EXPECT_EQ(total_ios(job, "read"), 1024u) << program;
    EXPECT_EQ(job["read"]["io_bytes"].get<std::uint64_t>(), 4u << 20) << program;
    EXPECT_EQ(job["error"].get<int>(), 0) << program;
    // Submissions at a depth of 8: most of them in both tools (the queue refills as ios complete).
    EXPECT_GT(job["iodepth_level"]["8"].get<double>(), 50.0) << program << ": " << job["iodepth_level"].dump();
  }
}

// fio 3.33's posixaio issues a due sync again while its queue still has room (up to iodepth syncs in a row:
// 140 and 164 syncs for 256 writes in two runs here, its io log shows them); fio's psync and libaio issue
// one per 4 writes (63, the last one falls after the job's end), as sluice does with every engine.
TEST_F(Posixaio, FsyncEveryFourWrites) {
  for (const std::string program : {"fio", "sluice"}) {
    const nlohmann::json job = job_of(program, {"--rw=write", "--bs=4k", "--size=1m", "--iodepth=4", "--fsync=4"});
    EXPECT_EQ(total_ios(job, "write"), 256u) << program;
    const auto syncs = job["sync"]["total_ios"].get<std::uint64_t>();
    if (program == "fio") {
      EXPECT_GE(syncs, 63u);
    } else {
      EXPECT_EQ(syncs, 64u);
    }
  }
}

TEST_F(Posixaio, WritesVerify) {
  for (const std::string program : {"fio", "sluice"}) {
    const nlohmann::json job = job_of(program, {"--rw=randwrite", "--bs=8k", "--size=2m", "--iodepth=8", "--direct=1",
                                                "--verify=crc32c", "--verify_fatal=1"});
    EXPECT_EQ(job["error"].get<int>(), 0) << program;
    EXPECT_EQ(total_ios(job, "write"), 256u) << program;
    EXPECT_EQ(total_ios(job, "read"), 256u) << program << " (the verify phase)";
  }
}

}  // namespace
}  // namespace sluice::testing
