// Job files as common fio guides write them run through build/sluice unchanged but for the file name
// (sizes and runtimes are shrunk with the run options --cap-size / --cap-runtime, which leave the file as
// it is): random read and write at depth 32 with libaio, a reader and a writer on one file in parallel,
// and sysbench-style fsync after every write.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

using json = nlohmann::json;

class FioGuides : public ::testing::Test {
 protected:
  // Writes `text` as guide.fio with FILE replaced by a file in the temp dir, runs it, returns the "jobs".
  json run_guide(std::string text, const std::vector<std::string>& extra = {}) {
    const std::string target = dir_.file("guide.dat");
    for (std::size_t at = text.find("FILE"); at != std::string::npos; at = text.find("FILE", at)) {
      text.replace(at, 4, target);
    }
    const std::string job_file = dir_.file("guide.fio");
    std::ofstream(job_file) << text;
    std::vector<std::string> args = {"run", "--output-format=json", "--cap-size=8m", "--cap-runtime=300ms"};
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back(job_file);
    RunOutput r = run_binary(args);
    if (r.exit_code != 0 && r.err.find("O_DIRECT") != std::string::npos) {
      args.insert(args.begin() + 1, "--override=direct=0");  // tmpfs refuses O_DIRECT
      r = run_binary(args);
    }
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    if (r.exit_code != 0) return json::array();
    auto doc = parse_document(r.out);
    if (!doc) return json::array();
    document_ = *doc;
    return document_["jobs"];
  }

  static const json* job_named(const json& jobs, const std::string& name) {
    for (const json& j : jobs) {
      if (j.value("jobname", "") == name) return &j;
    }
    return nullptr;
  }

  TempDir dir_;
  json document_;  // the whole JSON of the last run_guide
};

TEST_F(FioGuides, RandomReadThenRandomWriteAtDepth32WithLibaio) {
  const json jobs = run_guide(R"([global]
ioengine=libaio
direct=1
bs=4k
iodepth=32
size=1G
runtime=60
time_based
filename=FILE
group_reporting

[rand-read]
rw=randread
stonewall

[rand-write]
rw=randwrite
stonewall
)");
  const json* reader = job_named(jobs, "rand-read");
  const json* writer = job_named(jobs, "rand-write");
  ASSERT_NE(reader, nullptr) << jobs.dump(1).substr(0, 2000);
  ASSERT_NE(writer, nullptr);
  EXPECT_GT(total_ios(*reader, "read"), 0u);
  EXPECT_EQ(total_ios(*reader, "write"), 0u);
  EXPECT_GT(total_ios(*writer, "write"), 0u);
  EXPECT_EQ(total_ios(*writer, "read"), 0u);
  EXPECT_EQ(document_["global options"].value("iodepth", ""), "32");  // set in [global], as fio reports it
}

TEST_F(FioGuides, ReaderAndWriterOnTheSameFileInParallel) {
  const json jobs = run_guide(R"([global]
filename=FILE
size=256M
bs=4k
ioengine=libaio
direct=1
iodepth=16
runtime=30
time_based

[reader]
rw=randread

[writer]
rw=randwrite
)");
  const json* reader = job_named(jobs, "reader");
  const json* writer = job_named(jobs, "writer");
  ASSERT_NE(reader, nullptr) << jobs.dump(1).substr(0, 2000);
  ASSERT_NE(writer, nullptr);
  EXPECT_GT(total_ios(*reader, "read"), 0u);
  EXPECT_EQ(total_ios(*reader, "write"), 0u);
  EXPECT_GT(total_ios(*writer, "write"), 0u);
  EXPECT_EQ(total_ios(*writer, "read"), 0u);
  // In parallel: no stonewall, so both belong to group 0.
  EXPECT_EQ((*reader).value("groupid", -1), (*writer).value("groupid", -2));
}

TEST_F(FioGuides, SysbenchStyleFsyncAfterEveryWrite) {
  const json jobs = run_guide(R"([global]
ioengine=psync
filename=FILE
size=64M
bs=16k
runtime=60
time_based

[fsync-every-write]
rw=randwrite
fsync=1
)");
  const json* job = job_named(jobs, "fsync-every-write");
  ASSERT_NE(job, nullptr) << jobs.dump(1).substr(0, 2000);
  const std::uint64_t writes = total_ios(*job, "write");
  EXPECT_GT(writes, 0u);
  EXPECT_EQ(total_ios(*job, "read"), 0u);
  EXPECT_EQ((*job)["sync"]["total_ios"].get<std::uint64_t>(), writes);
}

}  // namespace
}  // namespace sluice::testing
