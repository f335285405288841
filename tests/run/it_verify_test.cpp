// Data verification end to end through build/sluice on temporary files: write+verify for every kind, and
// corruption made between a write run and a verify_only run found with its offset, diagnosis and exit code 1.
// The last tests run fio's verify=md5 on the same job file to compare phases and exit codes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace {

using ::testing::HasSubstr;
using ::testing::Not;

struct Outcome {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class VerifyRun : public ::testing::Test {
 protected:
  Outcome run(const std::string& program, const std::string& args) {
    const std::string out = dir_.file("stdout"), err = dir_.file("stderr");
    const int status = std::system((program + " " + args + " >" + out + " 2>" + err).c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
  }
  Outcome sluice(const std::string& args) {
    return run(SLUICE_BINARY,
               "run --output-format=json --name=w --filename=" + data() + " --size=256k --bs=4k " + args);
  }
  // Flips the bits of one byte of the data file.
  void corrupt(std::uint64_t offset) {
    std::fstream f(data(), std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(static_cast<std::streamoff>(offset));
    const char c = static_cast<char>(f.get());
    f.seekp(static_cast<std::streamoff>(offset));
    f.put(static_cast<char>(~c));
  }
  // Copies one 4 KiB block of `from` over block `to_block` of the data file.
  void copy_block(const std::string& from, std::uint64_t from_block, std::uint64_t to_block) {
    std::ifstream in(from, std::ios::binary);
    std::string block(4096, '\0');
    in.seekg(static_cast<std::streamoff>(from_block * 4096));
    in.read(block.data(), 4096);
    std::fstream out(data(), std::ios::in | std::ios::out | std::ios::binary);
    out.seekp(static_cast<std::streamoff>(to_block * 4096));
    out.write(block.data(), 4096);
  }
  static nlohmann::json verify_counts(const Outcome& o) {
    return nlohmann::json::parse(o.out)["sluice"]["jobs"][0].value("verify", nlohmann::json::object());
  }
  std::string data() const { return dir_.file("data"); }

  sluice::testing::TempDir dir_;
};

class VerifyKinds : public VerifyRun, public ::testing::WithParamInterface<const char*> {};

TEST_P(VerifyKinds, WriteThenVerifyPasses) {
  const Outcome o = sluice(std::string("--rw=randwrite --verify=") + GetParam());
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const nlohmann::json doc = nlohmann::json::parse(o.out);
  EXPECT_EQ(doc["jobs"][0]["read"]["io_bytes"], 256 * 1024) << "the verify phase reads back everything written";
  EXPECT_EQ(verify_counts(o).value("failures", -1), 0);
  EXPECT_GT(verify_counts(o).value("verified_ios", 0), 0);
}

INSTANTIATE_TEST_SUITE_P(AllKinds, VerifyKinds,
                         ::testing::Values("crc32c", "crc32", "crc64", "xxhash", "md5", "sha256", "meta"));

TEST_F(VerifyRun, PatternWritesAndVerifies) {
  const Outcome o = sluice("--rw=write --verify_pattern=0xdeadbeef");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(slurp(data()).substr(0, 4), "\xde\xad\xbe\xef");
}

TEST_F(VerifyRun, VerifyOnlyPassesOnUntouchedData) {
  ASSERT_EQ(sluice("--rw=randwrite --verify=crc32c").exit_code, 0);
  const Outcome o = sluice("--rw=randwrite --verify=crc32c --verify_only=1");
  EXPECT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(nlohmann::json::parse(o.out)["jobs"][0]["write"]["io_bytes"], 0) << "verify_only writes nothing";
}

TEST_F(VerifyRun, CorruptByteFailsVerifyOnlyWithOffset) {
  ASSERT_EQ(sluice("--rw=randwrite --verify=crc32c").exit_code, 0);
  corrupt(8192 + 100);
  const Outcome o = sluice("--rw=randwrite --verify=crc32c --verify_only=1");
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_THAT(o.err, HasSubstr(data() + " offset 8192 length 4096: torn write or corrupted data"));
  EXPECT_THAT(o.err, HasSubstr("file offset 8292"));
  EXPECT_EQ(verify_counts(o).value("failures", 0), 1);
}

TEST_F(VerifyRun, VerifyDumpWritesTheChunkReadAndTheChunkExpected) {
  ASSERT_EQ(sluice("--rw=randwrite --verify=crc32c").exit_code, 0);
  corrupt(8192 + 100);
  // fio's names: the target's base name, the chunk's offset, received / expected; in the current directory.
  const Outcome o = run("cd " + dir_.path() + " && " SLUICE_BINARY,
                        "run --output-format=json --name=w --filename=" + data() +
                            " --size=256k --bs=4k --rw=randwrite --verify=crc32c --verify_only=1 --verify_dump=1");
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_THAT(o.err, HasSubstr("received data dumped as data.8192.received"));
  EXPECT_THAT(o.err, HasSubstr("expected data dumped as data.8192.expected"));
  const std::string received = slurp(dir_.file("data.8192.received"));
  const std::string expected = slurp(dir_.file("data.8192.expected"));
  ASSERT_EQ(received.size(), 4096u);
  ASSERT_EQ(expected.size(), 4096u);
  EXPECT_EQ(received, slurp(data()).substr(8192, 4096));
  std::vector<std::size_t> differing;
  for (std::size_t i = 0; i < received.size(); ++i) {
    if (received[i] != expected[i]) differing.push_back(i);
  }
  EXPECT_EQ(differing, std::vector<std::size_t>{100}) << "only the flipped byte differs";
}

TEST_F(VerifyRun, BlockCopiedElsewhereIsMisdirected) {
  ASSERT_EQ(sluice("--rw=write --verify=md5").exit_code, 0);
  copy_block(data(), 3, 5);
  const Outcome o = sluice("--rw=write --verify=md5 --verify_only=1");
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_THAT(o.err, HasSubstr("offset 20480 length 4096: misdirected write: the intact chunk found here was written "
                               "for offset 12288"));
}

TEST_F(VerifyRun, OldVersionOfABlockIsALostWrite) {
  ASSERT_EQ(sluice("--rw=randwrite --verify=xxhash").exit_code, 0);
  const std::string old = dir_.file("old");
  ASSERT_EQ(std::system(("cp " + data() + " " + old).c_str()), 0);
  ASSERT_EQ(sluice("--rw=randwrite --verify=xxhash --loops=2").exit_code, 0);
  copy_block(old, 7, 7);
  const Outcome o = sluice("--rw=randwrite --verify=xxhash --loops=2 --verify_only=1");
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_THAT(o.err, HasSubstr("offset 28672 length 4096: lost write: found generation 1, expected 2"));
}

TEST_F(VerifyRun, VerifyFatalStopsAtTheFirstFailure) {
  ASSERT_EQ(sluice("--rw=write --verify=crc32c").exit_code, 0);
  corrupt(4096 + 200);
  corrupt(40960 + 200);
  const Outcome o = sluice("--rw=write --verify=crc32c --verify_only=1 --verify_fatal=1");
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_THAT(o.err, HasSubstr("offset 4096 length 4096"));
  EXPECT_THAT(o.err, Not(HasSubstr("offset 40960 length 4096")));
}

TEST_F(VerifyRun, WithoutFatalEveryFailureIsCounted) {
  ASSERT_EQ(sluice("--rw=write --verify=crc32c").exit_code, 0);
  corrupt(4096 + 200);
  corrupt(40960 + 200);
  const Outcome o = sluice("--rw=write --verify=crc32c --verify_only=1");
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_EQ(verify_counts(o).value("failures", 0), 2);
}

TEST_F(VerifyRun, BacklogVerifiesEveryBlockOnce) {
  const Outcome o = sluice("--rw=randwrite --verify=crc32c --verify_backlog=8 --ioengine=io_uring --iodepth=4");
  if (o.exit_code != 0 && o.err.find("io_uring") != std::string::npos)
    GTEST_SKIP() << "io_uring unavailable: " << o.err;
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(nlohmann::json::parse(o.out)["jobs"][0]["read"]["io_bytes"], 256 * 1024);
}

TEST_F(VerifyRun, ReadJobChecksWhatAWriteJobWrote) {
  ASSERT_EQ(sluice("--rw=write --verify=sha256 --do_verify=0").exit_code, 0);
  EXPECT_EQ(sluice("--rw=randread --verify=sha256").exit_code, 0);
  corrupt(65536 + 4000);
  const Outcome o = sluice("--rw=randread --verify=sha256");
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_THAT(o.err, HasSubstr("offset 65536 length 4096: torn write or corrupted data"));
}

// fio and sluice on one job file: both write then read back everything (read bytes = write bytes) and exit 0;
// after a byte is flipped, both fail verify_only with exit code 1 and name the offset. (Each checks its own
// file: the on-disk formats differ, so fio cannot verify sluice's data nor the reverse.)
class VerifyVsFio : public VerifyRun {
 protected:
  void SetUp() override {
    SLUICE_REQUIRE(kFio);
    std::ofstream(job()) << "[w]\nfilename=" << data() << "\nsize=256k\nbs=4k\nrw=randwrite\nverify=md5\n";
  }
  std::string job() const { return dir_.file("job.fio"); }
};

TEST_F(VerifyVsFio, BothReadBackWhatTheyWrote) {
  for (const std::string& program : {std::string("fio"), std::string(SLUICE_BINARY) + " run"}) {
    const Outcome o = run(program, "--output-format=json " + job());
    ASSERT_EQ(o.exit_code, 0) << program << ": " << o.err;
    const nlohmann::json j = nlohmann::json::parse(o.out)["jobs"][0];
    EXPECT_EQ(j["read"]["io_bytes"], j["write"]["io_bytes"]) << program;
  }
}

TEST_F(VerifyVsFio, BothFailVerifyOnlyAfterCorruption) {
  for (const std::string& program : {std::string("fio"), std::string(SLUICE_BINARY) + " run"}) {
    ASSERT_EQ(run(program, job()).exit_code, 0) << program;
    corrupt(8192 + 100);
    const Outcome o = run(program, "--verify_only " + job());
    EXPECT_EQ(o.exit_code, 1) << program;
    EXPECT_THAT(o.err, HasSubstr("offset 8192")) << program;
  }
}

}  // namespace
