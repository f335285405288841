// The e4defrag engine next to fio 3.33's on this machine's ext4 (the test's temporary directory must be on
// ext4, else it skips): each write is one EXT4_IOC_MOVE_EXT ioctl (strace), the donor file is fallocated over
// the job's range once (inplace=0) or per write and truncated after (inplace=1), the file's bytes do not
// change, and reads or a job without donorname are refused. The moves skip where the kernel refuses
// EXT4_IOC_MOVE_EXT (some do, with EPERM, on an ordinary ext4 file as root).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

constexpr long kExt4Magic = 0xef53;

struct DefragCalls {
  int moves = 0;  // EXT4_IOC_MOVE_EXT ioctls
  int fallocates = 0;
};

std::string contents_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class E4defragEngine : public ::testing::Test {
 protected:
  void SetUp() override {
    struct statfs fs {};
    if (statfs(tmp_.path().c_str(), &fs) != 0 || fs.f_type != kExt4Magic) {
      GTEST_SKIP() << tmp_.path() << " is not on ext4";
    }
  }

  // A job of fio's e4defrag.fio, shrunk: 8 MiB written in 32 KiB moves.
  std::vector<std::string> job(const std::string& name, std::vector<std::string> extra) {
    std::vector<std::string> args = {"--name=defrag",
                                     "--ioengine=e4defrag",
                                     "--directory=" + tmp_.path(),
                                     "--filename=" + name,
                                     "--donorname=" + name + ".def",
                                     "--size=8m",
                                     "--filesize=8m",
                                     "--bs=32k",
                                     "--direct=1",
                                     "--rw=write",
                                     "--output-format=json"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }
  DefragCalls traced(const std::string& program, std::vector<std::string> args) {
    const TracedRun r = run_traced(program, args, "ioctl,fallocate", tmp_.file(program + ".defrag.strace"));
    EXPECT_EQ(r.run.exit_code, 0) << program << ": " << describe(r.run);
    DefragCalls calls;
    for (const std::string& line : r.lines) {
      if (line.find("0x66, 0xf, 0x28") != std::string::npos || line.find("EXT4_IOC_MOVE_EXT") != std::string::npos) {
        ++calls.moves;
      }
      if (line.find("fallocate(") != std::string::npos) ++calls.fallocates;
    }
    return calls;
  }
  TempDir tmp_;
};

TEST_F(E4defragEngine, EachWriteIsOneMoveAsFio) {
  SLUICE_REQUIRE(kExt4MoveExt);
  SLUICE_REQUIRE(kStrace);
  SLUICE_REQUIRE(kFio);
  for (const std::string program : {"fio", "sluice"}) {
    const std::string name = program + ".data";
    DefragCalls calls = traced(program, job(name, {}));
    EXPECT_EQ(calls.moves, 256) << program;
    struct stat donor {};
    ASSERT_EQ(stat(tmp_.file(name + ".def").c_str(), &donor), 0) << program << ": the donor file is left";
    EXPECT_EQ(donor.st_size, 8 << 20) << program;
    calls = traced(program, job(name, {"--inplace=1"}));
    EXPECT_EQ(calls.moves, 256) << program;
    EXPECT_GE(calls.fallocates, 256) << program << ": one fallocate of the donor per write";
    ASSERT_EQ(stat(tmp_.file(name + ".def").c_str(), &donor), 0);
    EXPECT_EQ(donor.st_size, 0) << program << ": inplace truncates the donor after each move";
  }
}

TEST_F(E4defragEngine, TheFileKeepsItsBytes) {
  SLUICE_REQUIRE(kExt4MoveExt);
  run_as("sluice",
         {"--name=lay", "--filename=" + tmp_.file("kept"), "--size=8m", "--rw=write", "--bs=1m", "--end_fsync=1"});
  const std::string before = contents_of(tmp_.file("kept"));
  ASSERT_EQ(before.size(), 8u << 20);
  const RunOutput r = run_as("sluice", job("kept", {"--rw=randwrite"}));
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  const auto& j = (*doc)["jobs"][0];
  EXPECT_EQ(j["error"].get<int>(), 0);
  EXPECT_EQ(total_ios(j, "write"), 256u);
  EXPECT_EQ(j["write"]["io_bytes"].get<std::int64_t>(), 8 << 20);
  EXPECT_TRUE(contents_of(tmp_.file("kept")) == before) << "a move changes where the data is, not what it is";
}

TEST_F(E4defragEngine, ReadsAndAMissingDonorAreRefused) {
  RunOutput r = run_binary({"run", "--name=d", "--ioengine=e4defrag", "--filename=" + tmp_.file("r"), "--size=1m",
                            "--donorname=" + tmp_.file("r.def"), "--rw=read"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("does writes only"), std::string::npos) << r.err;
  r = run_binary({"run", "--name=d", "--ioengine=e4defrag", "--filename=" + tmp_.file("r"), "--size=1m", "--rw=write"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("needs donorname="), std::string::npos) << r.err;
}

}  // namespace
}  // namespace sluice::testing
