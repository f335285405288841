// rw_sequencer, bs_is_seq_rand and buffer_compress_chunk next to fio 3.33, read from both tools' io logs and
// written files: runs of rw=randread:4 repeat one offset with identical; bs_is_seq_rand gives random modes the
// second block size; compressible buffers are random then zero in runs of buffer_compress_chunk bytes.
// Skips without fio.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

class Sequencer : public ::testing::Test {
 protected:
  void SetUp() override {
    SLUICE_REQUIRE(kFio);
    std::ofstream out(tmp_.file("f"), std::ios::binary);
    out << std::string(1 << 20, 's');
  }

  // The io log of `program` running the options on the test file.
  std::vector<LoggedIo> ios_of(const std::string& program, const std::vector<std::string>& job) {
    std::vector<std::string> args = {"--name=q", "--filename=" + tmp_.file("f"), "--ioengine=psync",
                                     "--output-format=terse", "--write_iolog=" + tmp_.file("io.log")};
    args.insert(args.end(), job.begin(), job.end());
    std::filesystem::remove(tmp_.file("io.log"));  // both tools append to an existing io log
    run_as(program, args);
    return logged_ios(tmp_.file("io.log"));
  }

  TempDir tmp_;
};

TEST_F(Sequencer, IdenticalRepeatsTheRandomOffsetAsInFio) {
  for (const std::string program : {"fio", "sluice"}) {
    const auto ios = ios_of(program, {"--rw=randread:4", "--rw_sequencer=identical", "--bs=4k", "--size=64k"});
    ASSERT_EQ(ios.size(), 16u) << program;
    std::set<std::uint64_t> starts;
    for (std::size_t i = 0; i < ios.size(); i += 4) {
      starts.insert(ios[i].offset);
      for (std::size_t k = 1; k < 4; ++k) EXPECT_EQ(ios[i + k].offset, ios[i].offset) << program << " io " << i + k;
    }
    EXPECT_GT(starts.size(), 1u) << program;
  }
}

// fio shortens a random io that would overlap blocks its map has used (its map's unit is the smallest of the
// given sizes, 4 KiB here), so some of its random ios are shorter; none is longer, and most have the size.
TEST_F(Sequencer, BsIsSeqRandGivesRandomModesTheSecondSize) {
  struct Case {
    std::string rw;
    std::uint64_t length;
  };
  for (const Case& c : {Case{"randread", 16384}, Case{"read", 4096}, Case{"randrw", 16384}, Case{"write", 4096}}) {
    for (const std::string program : {"fio", "sluice"}) {
      const auto ios = ios_of(program, {"--rw=" + c.rw, "--bs=4k,16k", "--bs_is_seq_rand=1", "--size=256k"});
      ASSERT_FALSE(ios.empty()) << program << " " << c.rw;
      std::size_t full = 0;
      for (const LoggedIo& io : ios) {
        EXPECT_LE(io.length, c.length) << program << " " << c.rw << " " << io;
        if (io.length == c.length) ++full;
      }
      EXPECT_GT(2 * full, ios.size()) << program << " " << c.rw;
      if (program == "sluice") {
        EXPECT_EQ(full, ios.size()) << c.rw;
      }
    }
  }
}

// Of each `chunk` bytes of the file: is the first half free of zero runs and the second half all zeros?
double share_of_random_then_zero_chunks(const std::string& path, std::size_t chunk) {
  std::ifstream in(path, std::ios::binary);
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::size_t good = 0, total = 0;
  for (std::size_t at = 0; at + chunk <= data.size(); at += chunk, ++total) {
    const std::string first = data.substr(at, chunk / 2);
    const std::string second = data.substr(at + chunk / 2, chunk / 2);
    const bool zeros = second.find_first_not_of('\0') == std::string::npos;
    const bool random = first.find(std::string(16, '\0')) == std::string::npos;
    if (zeros && random) ++good;
  }
  return total == 0 ? 0.0 : static_cast<double>(good) / static_cast<double>(total);
}

TEST_F(Sequencer, CompressChunksAreLaidOutAsInFio) {
  for (const std::string chunk : {"512", "2k"}) {
    for (const std::string program : {"fio", "sluice"}) {
      std::vector<std::string> args = {"--name=c",
                                       "--filename=" + tmp_.file(program),
                                       "--size=256k",
                                       "--bs=8k",
                                       "--rw=write",
                                       "--ioengine=psync",
                                       "--buffer_compress_percentage=50",
                                       "--buffer_compress_chunk=" + chunk,
                                       "--output-format=terse"};
      run_as(program, args);
      const std::size_t bytes = chunk == "512" ? 512 : 2048;
      EXPECT_GT(share_of_random_then_zero_chunks(tmp_.file(program), bytes), 0.99) << program << " chunk " << chunk;
      // With the other chunk size the halves do not line up.
      EXPECT_LT(share_of_random_then_zero_chunks(tmp_.file(program), bytes == 512 ? 2048 : 512), 0.5)
          << program << " chunk " << chunk;
    }
  }
}

}  // namespace
}  // namespace sluice::testing
