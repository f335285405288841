// Verification with variable block sizes and verify_offset, next to fio 3.33: fio verifies bsrange and
// bssplit jobs without verify_interval (a header per io) and so does sluice (a header per largest common
// divisor of the sizes); verify_offset moves the header into the chunk in both. sluice's headers are found
// where they should be on disk, and a flipped byte is caught afterwards. Skips the fio side without fio.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

class VerifyLayout : public ::testing::Test {
 protected:
  std::vector<std::string> job(const std::vector<std::string>& extra) const {
    std::vector<std::string> args = {
        "--name=v",         "--filename=" + tmp_.file("f"), "--size=2m", "--ioengine=psync", "--verify=crc32c",
        "--verify_fatal=1", "--output-format=json"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }

  nlohmann::json first_job(const RunOutput& r) const {
    const std::size_t start = r.out.find("{\n");
    const auto doc = parse_document(start == std::string::npos ? r.out : r.out.substr(start));
    return doc ? (*doc)["jobs"][0] : nlohmann::json{};
  }

  // Flips one byte of the test file.
  void flip_byte(std::uint64_t offset) const {
    const int fd = ::open(tmp_.file("f").c_str(), O_RDWR);
    ASSERT_GE(fd, 0);
    unsigned char byte = 0;
    ASSERT_EQ(::pread(fd, &byte, 1, static_cast<off_t>(offset)), 1);
    byte ^= 0x5a;
    ASSERT_EQ(::pwrite(fd, &byte, 1, static_cast<off_t>(offset)), 1);
    ::close(fd);
  }

  TempDir tmp_;
};

TEST_F(VerifyLayout, VariableBlockSizesVerifyWithoutIntervalAsInFio) {
  const std::vector<std::vector<std::string>> jobs = {{"--rw=randwrite", "--bsrange=4k-32k"},
                                                      {"--rw=write", "--bssplit=4k/50:16k/30:64k/20"}};
  for (const auto& extra : jobs) {
    std::vector<std::string> programs = {"sluice"};
    if (::sluice::testing::have(::sluice::testing::Feature::kFio)) programs.insert(programs.begin(), "fio");
    for (const std::string& program : programs) {
      const nlohmann::json j = first_job(run_as(program, job(extra)));
      EXPECT_EQ(j["error"].get<int>(), 0) << program << " " << extra[1];
      EXPECT_EQ(j["write"]["io_bytes"].get<std::uint64_t>(), 2u << 20) << program << " " << extra[1];
      EXPECT_EQ(j["read"]["io_bytes"].get<std::uint64_t>(), 2u << 20) << program << " " << extra[1] << " (verify)";
    }
  }
}

TEST_F(VerifyLayout, AFlippedByteOfAVariableSizeWriteIsFound) {
  const std::vector<std::string> extra = {"--rw=randwrite", "--bsrange=4k-32k", "--do_verify=0"};
  run_as("sluice", job(extra));
  flip_byte(5 * 4096 + 100);
  std::vector<std::string> args = job({"--rw=randwrite", "--bsrange=4k-32k", "--verify_only=1"});
  args.insert(args.begin(), "run");
  const RunOutput r = run_binary(args);
  EXPECT_NE(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.err.find("offset 20480 length 4096"), std::string::npos) << r.err;
}

TEST_F(VerifyLayout, VerifyOffsetMovesTheHeaderAsInFio) {
  const std::vector<std::string> extra = {"--rw=randwrite", "--bs=4k", "--verify_offset=512"};
  if (::sluice::testing::have(::sluice::testing::Feature::kFio)) {
    const nlohmann::json j = first_job(run_as("fio", job(extra)));
    EXPECT_EQ(j["error"].get<int>(), 0);
  }
  const nlohmann::json j = first_job(run_as("sluice", job(extra)));
  EXPECT_EQ(j["error"].get<int>(), 0);
  EXPECT_EQ(j["read"]["io_bytes"].get<std::uint64_t>(), 2u << 20);
  // On disk, every 4 KiB block has sluice's magic ("SLVF") at byte 512, where the data's first bytes were.
  std::ifstream in(tmp_.file("f"), std::ios::binary);
  std::string block(4096, '\0');
  for (int i = 0; i < 512 && in.read(block.data(), 4096); ++i) {
    ASSERT_EQ(block.substr(512, 4), "SLVF") << "block " << i;
    ASSERT_NE(block.substr(0, 4), "SLVF") << "block " << i;
  }
  // The header's offset field (16 bytes into the header) damaged: caught by a later verify_only run.
  flip_byte(7 * 4096 + 512 + 16);
  std::vector<std::string> args = job({"--rw=randwrite", "--bs=4k", "--verify_offset=512", "--verify_only=1"});
  args.insert(args.begin(), "run");
  const RunOutput r = run_binary(args);
  EXPECT_NE(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.err.find("offset 28672 length 4096: header damaged"), std::string::npos) << r.err;
}

TEST_F(VerifyLayout, AHeaderPastTheChunkIsRefused) {
  const RunOutput r = run_binary({"run", "--name=v", "--filename=" + tmp_.file("f"), "--size=1m", "--rw=write",
                                  "--bs=4k", "--verify=md5", "--verify_offset=4050"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("verify_offset=4050: the 72-byte verify header would end past the 4096-byte chunk"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace sluice::testing
