// Verify chunks: checksums against published check values, header round trip, fill and check per kind, and
// the diagnoses (lost, torn, misdirected, no header, pattern mismatch) from corrupted buffers.
#include "workload/verify_block.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

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
  EXPECT_EQ(digest_hex(VerifyKind::kMd5, compute_digest(VerifyKind::kMd5, "abc", 3)),
            "900150983cd24fb0d6963f7d28e17f72");
}

TEST(VerifyChecksum, Sha256OfAbc) {
  EXPECT_EQ(digest_hex(VerifyKind::kSha256, compute_digest(VerifyKind::kSha256, "abc", 3)),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

// fio's crc7 and crc16: the catalogue's CRC-7/MMC and CRC-16/ARC, and the first entries of fio's tables.
TEST(VerifyChecksum, Crc7AndCrc16CheckValues) {
  EXPECT_EQ(crc7_mmc(kCheck.data(), kCheck.size()), 0x75);
  EXPECT_EQ(crc16_arc(kCheck.data(), kCheck.size()), 0xbb3d);
  const unsigned char one = 1, two = 2;
  EXPECT_EQ(crc7_mmc(&one, 1), 0x09);  // crc7_syndrome_table[1]
  EXPECT_EQ(crc7_mmc(&two, 1), 0x12);
  EXPECT_EQ(crc16_arc(&one, 1), 0xc0c1);  // crc16_table[1]
  EXPECT_EQ(digest_hex(VerifyKind::kCrc16, compute_digest(VerifyKind::kCrc16, kCheck.data(), kCheck.size())), "0xbb3d");
}

TEST(VerifyChecksum, ShaFamilyOfAbc) {
  const auto hex = [](VerifyKind kind) { return digest_hex(kind, compute_digest(kind, "abc", 3)); };
  EXPECT_EQ(hex(VerifyKind::kSha1), "a9993e364706816aba3e25717850c26c9cd0d89d");
  EXPECT_EQ(hex(VerifyKind::kSha512),
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
            "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f");
  EXPECT_EQ(hex(VerifyKind::kSha3_224), "e642824c3f8cf24ad09234ee7d3c766fc9a3a5168d0c94ad73b46fdf");
  EXPECT_EQ(hex(VerifyKind::kSha3_256), "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532");
  EXPECT_EQ(digest_size(VerifyKind::kSha3_384), 48u);
  EXPECT_EQ(digest_size(VerifyKind::kSha3_512), 64u);
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

TEST(VerifyHeader, LongDigestsGetA104ByteHeader) {
  EXPECT_EQ(verify_header_size(VerifyKind::kSha256), 72u);
  EXPECT_EQ(verify_header_size(VerifyKind::kSha3_384), 104u);
  EXPECT_EQ(verify_header_size(VerifyKind::kSha512), 104u);
  EXPECT_EQ(verify_header_size(VerifyKind::kNull), 0u);
  VerifyHeader h;
  h.kind = VerifyKind::kSha512;
  h.header_size = kLongVerifyHeaderSize;
  h.digest[63] = 0x5a;
  unsigned char buf[kLongVerifyHeaderSize] = {};
  encode_header(h, buf);
  EXPECT_EQ(buf[103], 0x5a);
  EXPECT_EQ(decode_header(buf, sizeof buf).digest, h.digest);
  EXPECT_EQ(decode_header(buf, kVerifyHeaderSize).digest[63], 0) << "a header is read within the bytes given";
}

class VerifyChunkKinds : public ::testing::TestWithParam<VerifyKind> {
 protected:
  VerifyFormat format() const {
    return VerifyFormat{GetParam(), 4096, GetParam() == VerifyKind::kPattern ? "\xaa\x55" : "", {}};
  }
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
  if (GetParam() == VerifyKind::kMeta || GetParam() == VerifyKind::kNull) {
    EXPECT_FALSE(failure.has_value()) << "meta checks the header only, null nothing";
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
                                           VerifyKind::kMeta, VerifyKind::kPattern, VerifyKind::kCrc7,
                                           VerifyKind::kCrc16, VerifyKind::kSha1, VerifyKind::kSha512,
                                           VerifyKind::kSha3_224, VerifyKind::kSha3_256, VerifyKind::kSha3_384,
                                           VerifyKind::kSha3_512, VerifyKind::kNull),
                         [](const auto& kind) {
                           std::string name(verify_kind_name(kind.param));
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

// A chunk written under other verify settings (another kind, so another header size) is named as such, in
// both directions between the 72- and the 104-byte header.
TEST(VerifyDiagnose, OtherHeaderSizeIsOtherSettings) {
  const VerifyFormat short_header{VerifyKind::kCrc32c, 4096, "", {}};
  const VerifyFormat long_header{VerifyKind::kSha512, 4096, "", {}};
  const ChunkExpectation e{0, 1, chunk_seed(42, 0, 0, 1)};
  std::vector<unsigned char> buf(4096);
  fill_chunk(buf.data(), long_header, e);
  auto failure = check_chunk(buf.data(), 4096, short_header, e);
  ASSERT_TRUE(failure.has_value());
  EXPECT_EQ(failure->diagnosis, VerifyDiagnosis::kFormatMismatch);
  EXPECT_THAT(describe_failure(*failure, short_header, "f"), HasSubstr("found verify=sha512"));
  fill_chunk(buf.data(), short_header, e);
  failure = check_chunk(buf.data(), 4096, long_header, e);
  ASSERT_TRUE(failure.has_value());
  EXPECT_EQ(failure->diagnosis, VerifyDiagnosis::kFormatMismatch);
  buf[90] ^= 1;  // past the short header: data, so the long header's check would see a damaged header
  failure = check_chunk(buf.data(), 4096, long_header, e);
  ASSERT_TRUE(failure.has_value());
  EXPECT_EQ(failure->diagnosis, VerifyDiagnosis::kFormatMismatch);
}

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
