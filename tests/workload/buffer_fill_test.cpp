#include "workload/buffer_fill.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <vector>

#include "job/option_table.h"

namespace sluice {
namespace {

// Original size / zlib-compressed size.
double compression_ratio(const std::vector<unsigned char>& data) {
  uLongf compressed_size = compressBound(data.size());
  std::vector<unsigned char> compressed(compressed_size);
  EXPECT_EQ(compress2(compressed.data(), &compressed_size, data.data(), data.size(), 6), Z_OK);
  return static_cast<double>(data.size()) / static_cast<double>(compressed_size);
}

std::vector<unsigned char> filled(const BufferFillPolicy& policy, std::size_t length) {
  std::vector<unsigned char> data(length, 0xAA);
  Rng rng(5);
  fill_buffer(data.data(), data.size(), policy, rng);
  return data;
}

TEST(BufferFill, RandomBuffersDoNotCompress) { EXPECT_NEAR(compression_ratio(filled({}, 1 << 20)), 1.0, 0.01); }

TEST(BufferFill, FiftyPercentCompressibleHalvesTheSize) {
  BufferFillPolicy policy;
  policy.content = BufferContent::kCompressible;
  policy.compress_percentage = 50;
  EXPECT_NEAR(compression_ratio(filled(policy, 1 << 20)), 2.0, 0.1);
}

TEST(BufferFill, ZeroPolicyWritesZeros) {
  BufferFillPolicy policy;
  policy.content = BufferContent::kZero;
  auto data = filled(policy, 12345);
  EXPECT_TRUE(std::all_of(data.begin(), data.end(), [](unsigned char c) { return c == 0; }));
}

TEST(BufferFill, BufferPatternRepeatsFromTheStartAndWinsOverOtherContents) {
  JobSpec job;
  job.buffers.buffer_pattern = "\x01\x02\x03";
  job.buffers.zero_buffers = true;
  const BufferFillPolicy policy = BufferFillPolicy::from_options(job.buffers, job.explicitly_given.refill_buffers);
  ASSERT_EQ(policy.content, BufferContent::kPattern);
  const auto data = filled(policy, 10);
  EXPECT_EQ(data, (std::vector<unsigned char>{1, 2, 3, 1, 2, 3, 1, 2, 3, 1}));
}

TEST(BufferFill, OddLengthsStayInsideTheBuffer) {
  std::vector<unsigned char> data(64, 0xAA);
  Rng rng(1);
  fill_buffer(data.data() + 8, 13, BufferFillPolicy{}, rng);
  EXPECT_TRUE(std::all_of(data.begin(), data.begin() + 8, [](unsigned char c) { return c == 0xAA; }));
  EXPECT_TRUE(std::all_of(data.begin() + 21, data.end(), [](unsigned char c) { return c == 0xAA; }));
  EXPECT_FALSE(std::all_of(data.begin() + 8, data.begin() + 21, [](unsigned char c) { return c == 0xAA; }));
}

TEST(BufferFill, SuccessiveFillsDiffer) {
  std::vector<unsigned char> a(4096);
  std::vector<unsigned char> b(4096);
  Rng rng(1);
  fill_buffer(a.data(), a.size(), BufferFillPolicy{}, rng);
  fill_buffer(b.data(), b.size(), BufferFillPolicy{}, rng);
  EXPECT_NE(a, b);
}

TEST(BufferFillPolicy, FromJobMapsTheOptions) {
  JobSpec job;
  EXPECT_EQ(BufferFillPolicy::from_options(job.buffers, job.explicitly_given.refill_buffers).content,
            BufferContent::kRandom);
  EXPECT_FALSE(BufferFillPolicy::from_options(job.buffers, job.explicitly_given.refill_buffers).refill_each_write);
  job.buffers.refill_buffers = true;
  EXPECT_TRUE(BufferFillPolicy::from_options(job.buffers, job.explicitly_given.refill_buffers).refill_each_write);
  job.buffers.zero_buffers = true;
  EXPECT_EQ(BufferFillPolicy::from_options(job.buffers, job.explicitly_given.refill_buffers).content,
            BufferContent::kZero);
}

TEST(BufferFillPolicy, CompressPercentageImpliesRefillUnlessGiven) {
  JobSpec job;
  job.buffers.buffer_compress_percentage = 40;
  auto policy = BufferFillPolicy::from_options(job.buffers, job.explicitly_given.refill_buffers);
  EXPECT_EQ(policy.content, BufferContent::kCompressible);
  EXPECT_EQ(policy.compress_percentage, 40u);
  EXPECT_TRUE(policy.refill_each_write);
  apply_option(job, "refill_buffers", "0", SourcePos{});
  EXPECT_FALSE(BufferFillPolicy::from_options(job.buffers, job.explicitly_given.refill_buffers).refill_each_write);
}

}  // namespace
}  // namespace sluice
