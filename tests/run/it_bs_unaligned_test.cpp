// fio's bs_unaligned next to fio 3.33 on the same jobs, read from both tools' io logs: bsrange=1k-8k draws
// lengths that are not multiples of 1 KiB; random offsets stay 1 KiB aligned and never overlap (the random
// map takes each block an io touches), so a pass moves less than the file; sequential ios follow each other
// byte for byte to the file's end. direct=1 is refused. Skips without fio.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

std::vector<LoggedIo> unaligned_run(const std::string& program, TempDir& tmp, const std::string& rw) {
  const std::string log = tmp.file(program + "-" + rw + ".iolog");
  run_as(program, {"--name=u", "--filename=" + tmp.file(program), "--size=1m", "--rw=" + rw, "--bsrange=1k-8k",
                   "--bs_unaligned=1", "--write_iolog=" + log, "--output-format=json"});
  return logged_ios(log);
}

TEST(BsUnaligned, RandomLengthsAnyByteOffsetsAlignedNoOverlap) {
  SLUICE_REQUIRE(kFio);
  TempDir tmp;
  for (const std::string program : {"fio", "sluice"}) {
    const std::vector<LoggedIo> ios = unaligned_run(program, tmp, "randwrite");
    ASSERT_GT(ios.size(), 150u) << program;  // 1 MiB in ios of 4.5 KiB on average: about 230
    std::uint64_t bytes = 0;
    int unaligned = 0;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> spans;
    for (const LoggedIo& io : ios) {
      EXPECT_GE(io.length, 1u) << program;
      EXPECT_LE(io.length, 8192u) << program;
      EXPECT_EQ(io.offset % 1024, 0u) << program << ": " << io;
      unaligned += io.length % 1024 != 0 ? 1 : 0;
      bytes += io.length;
      spans.emplace_back(io.offset, io.offset + io.length);
    }
    EXPECT_GT(unaligned, static_cast<int>(ios.size()) / 3) << program;  // fio: 139 of 250
    EXPECT_LT(bytes, 1u << 20) << program << ": the unused ends of the last blocks";
    std::sort(spans.begin(), spans.end());
    for (std::size_t i = 1; i < spans.size(); ++i) {
      EXPECT_LE(spans[i - 1].second, spans[i].first) << program << ": overlap at " << spans[i].first;
    }
  }
}

TEST(BsUnaligned, SequentialIosFollowEachOther) {
  SLUICE_REQUIRE(kFio);
  TempDir tmp;
  for (const std::string program : {"fio", "sluice"}) {
    const std::vector<LoggedIo> ios = unaligned_run(program, tmp, "write");
    ASSERT_GT(ios.size(), 100u) << program;
    std::uint64_t expected = 0;
    for (const LoggedIo& io : ios) {
      EXPECT_EQ(io.offset, expected) << program;
      expected = io.offset + io.length;
    }
    // To the end but a tail shorter than the smallest length (fio draws lengths until one fits: 1,048,359 in
    // one run; sluice shortens the last io to the room left).
    EXPECT_LE(expected, 1u << 20) << program;
    EXPECT_GT(expected, (1u << 20) - 1024) << program;
  }
}

TEST(BsUnaligned, DirectIsRefused) {
  TempDir tmp;
  const RunOutput r = run_binary({"run", "--name=u", "--filename=" + tmp.file("f"), "--size=1m", "--rw=randread",
                                  "--bsrange=1k-8k", "--bs_unaligned=1", "--direct=1"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("bs_unaligned with direct=1"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace sluice::testing
