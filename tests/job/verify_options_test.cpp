// The verify options: parsing (kinds, fio's pattern forms) and validation (chunk size, modes).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "job/option_table.h"
#include "job/validate.h"
#include "job/validate_verify.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;

JobSpec verify_job_with(const std::vector<std::pair<std::string, std::string>>& options) {
  JobSpec job;
  job.name = "j";
  for (const auto& [name, value] : options) apply_option(job, name, value, SourcePos{});
  return job;
}

std::string apply_error(const std::string& name, const std::string& value) {
  try {
    verify_job_with({{name, value}});
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

std::vector<std::string> verify_errors_of(const JobSpec& job) {
  std::vector<std::string> out;
  for (const Problem& p : validate(job)) {
    if (p.severity == Problem::Severity::kError) out.push_back(p.message);
  }
  return out;
}

bool any_contains(const std::vector<std::string>& messages, const std::string& text) {
  return std::any_of(messages.begin(), messages.end(), [&](const std::string& m) { return m.find(text) != m.npos; });
}

TEST(VerifyOptions, KindsParse) {
  EXPECT_EQ(verify_job_with({{"verify", "crc32c"}}).verification.verify, VerifyKind::kCrc32c);
  EXPECT_EQ(verify_job_with({{"verify", "crc32c-intel"}}).verification.verify, VerifyKind::kCrc32c);
  EXPECT_EQ(verify_job_with({{"verify", "sha256"}}).verification.verify, VerifyKind::kSha256);
  EXPECT_EQ(verify_job_with({{"verify", "0"}}).verification.verify, VerifyKind::kNone);
}

TEST(VerifyOptions, EveryFioKindParses) {
  const std::pair<const char*, VerifyKind> kinds[] = {
      {"crc7", VerifyKind::kCrc7},         {"crc16", VerifyKind::kCrc16},       {"sha1", VerifyKind::kSha1},
      {"sha512", VerifyKind::kSha512},     {"sha3-224", VerifyKind::kSha3_224}, {"sha3-256", VerifyKind::kSha3_256},
      {"sha3-384", VerifyKind::kSha3_384}, {"sha3-512", VerifyKind::kSha3_512}, {"null", VerifyKind::kNull}};
  for (const auto& [name, kind] : kinds)
    EXPECT_EQ(verify_job_with({{"verify", name}}).verification.verify, kind) << name;
  EXPECT_THAT(apply_error("verify", "sha2"), HasSubstr("sha256"));
}

TEST(VerifyValidate, LongDigestsNeedA104ByteHeader) {
  const JobSpec short_interval =
      verify_job_with({{"rw", "write"}, {"bs", "512"}, {"verify", "sha512"}, {"verify_interval", "64"}});
  EXPECT_TRUE(any_contains(verify_errors_of(short_interval), "less than the header (104 bytes)"));
  EXPECT_TRUE(verify_errors_of(
                  verify_job_with({{"rw", "write"}, {"bs", "512"}, {"verify", "sha256"}, {"verify_interval", "128"}}))
                  .empty());
  const JobSpec null_kind =
      verify_job_with({{"rw", "write"}, {"bs", "4k"}, {"verify", "null"}, {"verify_offset", "100"}});
  EXPECT_TRUE(verify_errors_of(null_kind).empty()) << "null has no header to place";
}

TEST(VerifyOptions, HexPatternKeepsByteOrder) {
  EXPECT_EQ(verify_job_with({{"verify_pattern", "0xdeadbeef"}}).verification.verify_pattern,
            std::string("\xde\xad\xbe\xef"));
}

TEST(VerifyOptions, QuotedAndHexPartsConcatenate) {
  EXPECT_EQ(verify_job_with({{"verify_pattern", "\"ab\"0x0a"}}).verification.verify_pattern, std::string("ab\n"));
}

TEST(VerifyOptions, PatternAloneImpliesVerifyPattern) {
  EXPECT_EQ(verify_job_with({{"verify_pattern", "0xaa"}}).verification.verify, VerifyKind::kPattern);
  EXPECT_EQ(verify_job_with({{"verify", "md5"}, {"verify_pattern", "0xaa"}}).verification.verify, VerifyKind::kMd5);
}

// fio's lib/pattern.c examples, byte for byte.
TEST(VerifyOptions, PatternsAsFioParsesThem) {
  using namespace std::string_literals;
  EXPECT_EQ(verify_job_with({{"verify_pattern", "-1024"}}).verification.verify_pattern, "\x00\xfc\xff\xff"s);
  EXPECT_EQ(verify_job_with({{"verify_pattern", "66"}}).verification.verify_pattern, "\x42"s);
  EXPECT_EQ(verify_job_with({{"verify_pattern", "0"}}).verification.verify_pattern, "\x00"s);
  EXPECT_EQ(verify_job_with({{"verify_pattern", "0xFF0X1"}}).verification.verify_pattern, "\xff\x01"s);
  EXPECT_EQ(verify_job_with({{"verify_pattern", "\"123\"0xFFeeCC"}}).verification.verify_pattern, "123\xff\xee\xcc"s);
  // The example: "abcd", then -12 (the number ends where 0x begins), then 0xdeadface.
  EXPECT_EQ(verify_job_with({{"verify_pattern", "\"abcd\"-120xdeadface"}}).verification.verify_pattern,
            "abcd\xf4\xff\xff\xff\xde\xad\xfa\xce"s);
  const JobSpec with_offset = verify_job_with({{"verify_pattern", "-100xab\"1\"%o\"2\""}});
  EXPECT_EQ(with_offset.verification.verify_pattern,
            "\xf6\xff\xff\xff\xab"
            "1"
            "\0\0\0\0\0\0\0\0"
            "2"s);
  EXPECT_EQ(with_offset.verification.verify_pattern_offset_slots, (std::vector<std::uint32_t>{6}));
}

TEST(VerifyOptions, PatternFileAndErrors) {
  const std::string path = ::testing::TempDir() + "/sluice_pattern_file";
  { std::ofstream(path, std::ios::binary) << "xyz"; }
  EXPECT_EQ(verify_job_with({{"verify_pattern", "'" + path + "'0x01"}}).verification.verify_pattern,
            std::string("xyz\x01"));
  std::remove(path.c_str());
  EXPECT_THAT(apply_error("verify_pattern", "'/nonexistent/p'"), HasSubstr("cannot read the pattern file"));
  EXPECT_THAT(apply_error("verify_pattern", "3000000000"), HasSubstr("from -2147483648 to 2147483647"));
  EXPECT_THAT(apply_error("buffer_pattern", "%o"), HasSubstr("%o (the block offset) is only for verify_pattern"));
  EXPECT_THAT(apply_error("verify_pattern", "xyz"), HasSubstr("expected \"text\""));
}

TEST(VerifyValidate, WriteWithVerifyIsClean) {
  EXPECT_TRUE(verify_errors_of(verify_job_with({{"rw", "randwrite"}, {"verify", "crc32c"}})).empty());
}

std::vector<std::string> verify_warnings_of(const JobSpec& job) {
  std::vector<std::string> out;
  for (const Problem& p : validate(job)) {
    if (p.severity == Problem::Severity::kWarning) out.push_back(p.message);
  }
  return out;
}

// fio 3.33's fixup: an interval that does not divide the write sizes gives way to their common divisor.
TEST(VerifyValidate, IntervalThatDoesNotDivideTheBlockSizeFallsBackAsFio) {
  const JobSpec job = verify_job_with({{"rw", "write"}, {"verify", "md5"}, {"verify_interval", "3k"}});
  EXPECT_TRUE(verify_errors_of(job).empty());
  EXPECT_EQ(verify_chunk_size(job), 4096u);
  EXPECT_TRUE(any_contains(verify_warnings_of(job), "does not divide every block size"));
}

// blocksize=512 with verify_interval=1M runs in fio (headers every 512 bytes); so does the reverse.
TEST(VerifyValidate, IntervalOverTheSmallestBlockSizeShrinksToItAsFio) {
  const JobSpec small = verify_job_with(
      {{"rw", "write"}, {"bs", "512"}, {"verify", "md5"}, {"do_verify", "0"}, {"verify_interval", "1M"}});
  EXPECT_TRUE(verify_errors_of(small).empty());
  EXPECT_EQ(verify_chunk_size(small), 512u);
  EXPECT_TRUE(
      any_contains(verify_warnings_of(small), "verify_interval=1048576 is larger than the smallest block size"));
  const JobSpec big = verify_job_with(
      {{"rw", "write"}, {"bs", "1M"}, {"verify", "md5"}, {"do_verify", "0"}, {"verify_interval", "512"}});
  EXPECT_TRUE(verify_errors_of(big).empty());
  EXPECT_EQ(verify_chunk_size(big), 512u);
  EXPECT_TRUE(verify_warnings_of(big).empty());
}

// A job that writes and reads: past the write size the write size wins; else the read size may cap it.
TEST(VerifyValidate, IntervalCapFollowsFioOrderForMixedJobs) {
  EXPECT_EQ(verify_chunk_size(
                verify_job_with({{"rw", "randrw"}, {"bs", "8k,4k"}, {"verify", "crc32c"}, {"verify_interval", "16k"}})),
            4096u);
  EXPECT_EQ(verify_chunk_size(
                verify_job_with({{"rw", "randrw"}, {"bs", "4k,16k"}, {"verify", "crc32c"}, {"verify_interval", "8k"}})),
            4096u);
}

TEST(VerifyValidate, IntervalMustHoldTheHeader) {
  EXPECT_TRUE(any_contains(
      verify_errors_of(verify_job_with({{"rw", "write"}, {"bs", "512"}, {"verify", "md5"}, {"verify_interval", "64"}})),
      "less than the header"));
}

TEST(VerifyValidate, VariableBlockSizesTakeTheLargestCommonDivisor) {
  EXPECT_TRUE(verify_errors_of(verify_job_with({{"rw", "write"}, {"bsrange", "4k-16k"}, {"verify", "md5"}})).empty());
  EXPECT_EQ(verify_chunk_size(verify_job_with({{"rw", "randwrite"}, {"bsrange", "4k-10k"}, {"verify", "md5"}})), 4096u);
  EXPECT_EQ(
      verify_chunk_size(verify_job_with({{"rw", "randwrite"}, {"bssplit", "8k/50:24k/50"}, {"verify", "crc32c"}})),
      8192u);
  EXPECT_EQ(verify_chunk_size(
                verify_job_with({{"rw", "write"}, {"bsrange", "8k-32k"}, {"blockalign", "4k"}, {"verify", "crc32c"}})),
            4096u);
  EXPECT_TRUE(
      verify_errors_of(
          verify_job_with({{"rw", "write"}, {"bsrange", "4k-16k"}, {"verify", "md5"}, {"verify_interval", "4k"}}))
          .empty());
  // Sizes whose largest common divisor cannot hold a header say so and point at verify_interval.
  EXPECT_TRUE(any_contains(
      verify_errors_of(verify_job_with({{"rw", "write"}, {"bssplit", "4k/50:4100/50"}, {"verify", "md5"}})),
      "set verify_interval"));
}

TEST(VerifyValidate, TrimIsRefused) {
  EXPECT_TRUE(any_contains(verify_errors_of(verify_job_with({{"rw", "trim"}, {"verify", "md5"}})), "trim"));
}

TEST(VerifyValidate, VerifyOnlyNeedsWrites) {
  EXPECT_TRUE(any_contains(verify_errors_of(verify_job_with({{"rw", "read"}, {"verify", "md5"}, {"verify_only", "1"}})),
                           "verify_only replays the job's writes"));
}

TEST(VerifyValidate, ReadJobWithVerifyIsClean) {
  EXPECT_TRUE(verify_errors_of(verify_job_with({{"rw", "randread"}, {"verify", "md5"}})).empty());
}

TEST(VerifyValidate, PatternKindNeedsPattern) {
  EXPECT_TRUE(any_contains(verify_errors_of(verify_job_with({{"rw", "write"}, {"verify", "pattern"}})),
                           "needs verify_pattern"));
}

TEST(VerifyValidate, ChunkIsIntervalElseWriteBlockSize) {
  EXPECT_EQ(verify_chunk_size(verify_job_with({{"rw", "write"}, {"bs", "4k,16k"}, {"verify", "md5"}})), 16384u);
  EXPECT_EQ(verify_chunk_size(verify_job_with({{"rw", "write"}, {"verify", "md5"}, {"verify_interval", "512"}})), 512u);
}

}  // namespace
}  // namespace sluice
