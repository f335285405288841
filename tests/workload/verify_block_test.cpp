// Verify chunks: checksums against published check values, header round trip, fill and check per kind, and
// the diagnoses (lost, torn, misdirected, no header, pattern mismatch) from corrupted buffers.
#include <string>
#include <vector>

#include <cstring>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "workload/verify_block.h"
#include "workload/verify_checksum.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;

const std::string kCheck = "123456789";  // the standard check input of the CRC catalogue

TEST(VerifyChecksum, Crc32cCheckValue) { EXPECT_EQ(crc32c(kCheck.data(), kCheck.size()), 0xe3069283u); }

TEST(VerifyChecksum, Crc32cPortableMatchesHardware) {
  std::vector<unsigned char> data(1000);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<unsigned char>(i * 7 + 3);
  EXPECT_EQ(crc32c_portable(data.data(), data.size()), crc32c(data.data(), data.size()));
}

TEST(VerifyChecksum, Crc64CheckValue) { EXPECT_EQ(crc64_ecma(kCheck.data(), kCheck.size()), 0x995dc9bbdf1939faull); }

TEST(VerifyChecksum, Crc32CheckValue) {
  EXPECT_EQ(digest_hex(VerifyKind::kCrc32, compute_digest(VerifyKind::kCrc32, kCheck.data(), kCheck.size())),
            "0xcbf43926");
}

TEST(VerifyChecksum, Md5OfAbc) {
  EXPECT_EQ(digest_hex(VerifyKind::kMd5, compute_digest(VerifyKind::kMd5, "abc", 3)), "900150983cd24fb0d6963f7d28e17f72");
}

TEST(VerifyChecksum, Sha256OfAbc) {
  EXPECT_EQ(digest_hex(VerifyKind::kSha256, compute_digest(VerifyKind::kSha256, "abc", 3)),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(VerifyChecksum, XxhashOfEmptyInput) {
  EXPECT_EQ(digest_hex(VerifyKind::kXxhash, compute_digest(VerifyKind::kXxhash, "", 0)), "0xef46db3751d8e999");
}

TEST(VerifyHeader, RoundTrips) {
  VerifyHeader h;
  h.kind = VerifyKind::kSha256;
  h.length = 8192;
  h.offset = 0x123456789ull;
  h.generation = 7;
  h.seed = 0xfeedfacecafebeefull;
  h.digest[0] = 0xab;
  h.digest[31] = 0xcd;
  unsigned char buf[kVerifyHeaderSize];
  encode_header(h, buf);
  const VerifyHeader back = decode_header(buf);
  EXPECT_EQ(back.kind, h.kind);
  EXPECT_EQ(back.length, h.length);
  EXPECT_EQ(back.offset, h.offset);
  EXPECT_EQ(back.generation, h.generation);
  EXPECT_EQ(back.seed, h.seed);
  EXPECT_EQ(back.digest, h.digest);
}

class VerifyChunkKinds : public ::testing::TestWithParam<VerifyKind> {
 protected:
  VerifyFormat format() const { return VerifyFormat{GetParam(), 4096, GetParam() == VerifyKind::kPattern ? "\xaa\x55" : "", {}}; }
  ChunkExpectation expect(std::uint64_t offset = 8192, std::uint64_t generation = 3) const {
    return {offset, generation, chunk_seed(42, 0, offset, generation)};
  }
  std::vector<unsigned char> chunk_for(const ChunkExpectation& e) const {
    std::vector<unsigned char> buf(4096);
    fill_chunk(buf.data(), format(), e);
    return buf;
  }
};

TEST_P(VerifyChunkKinds, FreshChunkPasses) {
  const auto buf = chunk_for(expect());
  EXPECT_FALSE(check_chunk(buf.data(), 4096, format(), expect()).has_value());
}

TEST_P(VerifyChunkKinds, CorruptedDataIsCaughtUnlessMeta) {
  auto buf = chunk_for(expect());
  buf[1000] ^= 0x01;
  const auto failure = check_chunk(buf.data(), 4096, format(), expect());
  if (GetParam() == VerifyKind::kMeta) {
    EXPECT_FALSE(failure.has_value()) << "meta checks the header only";
    return;
  }
  ASSERT_TRUE(failure.has_value());
  const auto want = GetParam() == VerifyKind::kPattern ? VerifyDiagnosis::kPatternMismatch : VerifyDiagnosis::kTorn;
  EXPECT_EQ(failure->diagnosis, want);
  EXPECT_EQ(failure->first_bad_byte, 1000);
}

INSTANTIATE_TEST_SUITE_P(AllKinds, VerifyChunkKinds,
                         ::testing::Values(VerifyKind::kCrc32c, VerifyKind::kCrc32, VerifyKind::kCrc64,
                                           VerifyKind::kXxhash, VerifyKind::kMd5, VerifyKind::kSha256,
                                           VerifyKind::kMeta, VerifyKind::kPattern),
                         [](const auto& info) { return std::string(verify_kind_name(info.param)); });

VerifyFormat crc_format() { return VerifyFormat{VerifyKind::kCrc32c, 4096, "", {}}; }
ChunkExpectation at(std::uint64_t offset, std::uint64_t generation) {
  return {offset, generation, chunk_seed(42, 0, offset, generation)};
}
std::vector<unsigned char> written(const ChunkExpectation& e) {
  std::vector<unsigned char> buf(4096);
  fill_chunk(buf.data(), crc_format(), e);
  return buf;
}

TEST(VerifyDiagnose, OlderGenerationIsALostWrite) {
  const auto buf = written(at(8192, 1));
  const auto failure = check_chunk(buf.data(), 4096, crc_format(), at(8192, 2));
  ASSERT_TRUE(failure.has_value());
  EXPECT_EQ(failure->diagnosis, VerifyDiagnosis::kLost);
  EXPECT_THAT(describe_failure(*failure, crc_format(), "f"), HasSubstr("found generation 1, expected 2"));
}

TEST(VerifyDiagnose, OtherOffsetIsAMisdirectedWrite) {
  const auto buf = written(at(4096, 2));
  const auto failure = check_chunk(buf.data(), 4096, crc_format(), at(8192, 2));
  ASSERT_TRUE(failure.has_value());
  EXPECT_EQ(failure->diagnosis, VerifyDiagnosis::kMisdirected);
  EXPECT_THAT(describe_failure(*failure, crc_format(), "/x/f"),
              HasSubstr("/x/f offset 8192 length 4096: misdirected write: the intact chunk found here was written for "
                        "offset 4096"));
}

TEST(VerifyDiagnose, HalfNewHalfOldIsATornWrite) {
  auto buf = written(at(8192, 2));
  const auto old = written(at(8192, 1));
  std::copy(old.begin() + 2048, old.end(), buf.begin() + 2048);  // the second half never made it
  const auto failure = check_chunk(buf.data(), 4096, crc_format(), at(8192, 2));
  ASSERT_TRUE(failure.has_value());
  EXPECT_EQ(failure->diagnosis, VerifyDiagnosis::kTorn);
  EXPECT_EQ(failure->first_bad_byte, 2048);
  EXPECT_THAT(describe_failure(*failure, crc_format(), "f"), HasSubstr("crc32c stored 0x"));
}

TEST(VerifyDiagnose, ZerosHaveNoHeader) {
  const std::vector<unsigned char> zeros(4096, 0);
  const auto failure = check_chunk(zeros.data(), 4096, crc_format(), at(0, 1));
  ASSERT_TRUE(failure.has_value());
  EXPECT_EQ(failure->diagnosis, VerifyDiagnosis::kNoHeader);
}

TEST(VerifyDiagnose, CorruptHeaderIsDamaged) {
  auto buf = written(at(0, 1));
  buf[20] ^= 0x80;  // inside the offset field
  const auto failure = check_chunk(buf.data(), 4096, crc_format(), at(0, 1));
  ASSERT_TRUE(failure.has_value());
  EXPECT_EQ(failure->diagnosis, VerifyDiagnosis::kHeaderDamaged);
}

TEST(VerifyDiagnose, ShortReadIsReported) {
  const auto buf = written(at(0, 1));
  const auto failure = check_chunk(buf.data(), 512, crc_format(), at(0, 1));
  ASSERT_TRUE(failure.has_value());
  EXPECT_EQ(failure->diagnosis, VerifyDiagnosis::kShortRead);
}

TEST(VerifyDiagnose, UnknownGenerationAcceptsAnyIntactChunk) {
  const auto buf = written(at(8192, 5));
  EXPECT_FALSE(check_chunk(buf.data(), 4096, crc_format(), ChunkExpectation{8192, 0, 0}).has_value());
}

TEST(VerifyDiagnose, ChecksumWithPatternLocatesTheByte) {
  const VerifyFormat format{VerifyKind::kMd5, 4096, "\xde\xad\xbe\xef", {}};
  std::vector<unsigned char> buf(4096);
  fill_chunk(buf.data(), format, at(0, 1));
  EXPECT_EQ(buf[kVerifyHeaderSize], 0xde);
  buf[100] = 0;
  const auto failure = check_chunk(buf.data(), 4096, format, at(0, 1));
  ASSERT_TRUE(failure.has_value());
  EXPECT_EQ(failure->first_bad_byte, 100);
}

// verify_pattern=%o"ab": every 10-byte repetition carries the chunk's offset, little-endian, as fio pastes it.
TEST(VerifyPatternOffset, EachRepetitionCarriesTheChunkOffset) {
  VerifyFormat format{VerifyKind::kPattern, 4096, std::string(8, '\0') + "ab", {0}};
  std::vector<unsigned char> buf(4096);
  fill_chunk(buf.data(), format, ChunkExpectation{0x0102030405060708ull, 0, 0});
  const unsigned char first[10] = {8, 7, 6, 5, 4, 3, 2, 1, 'a', 'b'};
  EXPECT_EQ(std::memcmp(buf.data(), first, 10), 0);
  EXPECT_EQ(std::memcmp(buf.data() + 4090, first, 6), 0);  // the last repetition is cut after 6 bytes
  EXPECT_FALSE(check_chunk(buf.data(), 4096, format, ChunkExpectation{0x0102030405060708ull, 0, 0}).has_value());
  // Read back at another offset (a misdirected block): the pasted offset no longer matches.
  const auto failure = check_chunk(buf.data(), 4096, format, ChunkExpectation{8192, 0, 0});
  ASSERT_TRUE(failure.has_value());
  EXPECT_EQ(failure->diagnosis, VerifyDiagnosis::kPatternMismatch);
}

// trim_verify_zero: a trimmed chunk must be all zeros; the first other byte is named.
TEST(VerifyTrimmed, ZerosPassAnythingElseIsNamed) {
  for (const VerifyKind kind : {VerifyKind::kCrc32c, VerifyKind::kPattern}) {
    const VerifyFormat format{kind, 4096, kind == VerifyKind::kPattern ? "\xaa" : "", {}};
    ChunkExpectation trimmed{8192, 3, 0};
    trimmed.zeros = true;
    std::vector<unsigned char> buf(4096, 0xff);
    fill_chunk(buf.data(), format, trimmed);  // what is expected: zeros
    EXPECT_EQ(std::count(buf.begin(), buf.end(), 0), 4096);
    EXPECT_FALSE(check_chunk(buf.data(), 4096, format, trimmed).has_value());
    buf[300] = 0x5a;
    const auto failure = check_chunk(buf.data(), 4096, format, trimmed);
    ASSERT_TRUE(failure.has_value());
    EXPECT_EQ(failure->diagnosis, VerifyDiagnosis::kTrimmedNotZero);
    EXPECT_EQ(failure->first_bad_byte, 300);
    EXPECT_EQ(failure->found_bytes.substr(0, 2), "5a");
    const std::string text = describe_failure(*failure, format, "/d/f");
    EXPECT_NE(text.find("trimmed chunk not zero at byte 300"), std::string::npos) << text;
    // The data written before the trim is not zeros either: a device that ignored the discard.
    fill_chunk(buf.data(), format, ChunkExpectation{8192, 3, 42});
    EXPECT_TRUE(check_chunk(buf.data(), 4096, format, trimmed).has_value());
  }
}

}  // namespace
}  // namespace sluice
