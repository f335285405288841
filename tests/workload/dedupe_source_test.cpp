// DedupeSource: the share of dedupe buffers, what each one copies (repeat, working set, shared working set)
// and fio's 100 percent. A buffer is told apart by its generator's first output.
#include "workload/dedupe_source.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

namespace sluice {
namespace {

std::uint64_t fingerprint(Rng rng) { return rng.next(); }

std::uint64_t fingerprint_of(std::uint64_t stream, std::uint64_t index) {
  return fingerprint(DedupeSource::unique_buffer(stream, index));
}

TEST(DedupeSource, RepeatCopiesTheLastUniqueBuffer) {
  DedupeConfig config;
  config.percentage = 30;
  config.stream = 11;
  DedupeSource source(config, 5);
  std::uint64_t last_unique = fingerprint_of(11, 0);
  std::uint64_t uniques = 0;
  for (int i = 0; i < 10000; ++i) {
    const std::uint64_t before = source.unique_buffers();
    const std::uint64_t got = fingerprint(source.next());
    if (source.unique_buffers() > before) {
      EXPECT_EQ(got, fingerprint_of(11, before));  // unique buffers are numbered in order
      last_unique = got;
      ++uniques;
    } else {
      EXPECT_EQ(got, last_unique);
    }
  }
  EXPECT_EQ(source.unique_buffers() + source.dedupe_buffers(), 10000u);
  EXPECT_NEAR(static_cast<double>(source.dedupe_buffers()) / 10000.0, 0.30, 0.03);  // ~7 sigma
}

TEST(DedupeSource, WorkingSetPagesAreTheFirstUniqueBuffers) {
  DedupeConfig config;
  config.percentage = 50;
  config.working_set = true;
  config.working_set_pages = 100;
  config.stream = 3;
  DedupeSource source(config, 9);
  std::set<std::uint64_t> pages;
  for (std::uint64_t i = 0; i < 100; ++i) pages.insert(fingerprint_of(3, i));
  std::set<std::uint64_t> written;
  for (int i = 0; i < 400; ++i) {
    const std::uint64_t before = source.unique_buffers();
    const std::uint64_t got = fingerprint(source.next());
    written.insert(got);
    if (source.unique_buffers() == before) {
      EXPECT_EQ(pages.count(got), 1u);
    }
  }
  // ~200 unique buffers cover the 100 pages, so the distinct contents are the unique buffers alone.
  EXPECT_EQ(written.size(), source.unique_buffers());
}

TEST(DedupeSource, GlobalWorkingSetSpreadsPagesOverTheRunsStreams) {
  DedupeConfig config;
  config.percentage = 100 - 1;
  config.working_set = true;
  config.working_set_pages = 100;
  config.shared_streams = {21, 22};
  config.own_index = 1;
  config.stream = 22;
  DedupeSource source(config, 1);
  std::set<std::uint64_t> own, other;
  for (std::uint64_t i = 0; i < 50; ++i) {
    own.insert(fingerprint_of(22, i));
    other.insert(fingerprint_of(21, i));
  }
  int from_own = 0, from_other = 0;
  for (int i = 0; i < 2000; ++i) {
    const std::uint64_t before = source.unique_buffers();
    const std::uint64_t got = fingerprint(source.next());
    if (source.unique_buffers() != before) continue;
    if (own.count(got))
      ++from_own;
    else if (other.count(got))
      ++from_other;
    else
      ADD_FAILURE() << "a dedupe buffer outside the shared working set";
  }
  EXPECT_GT(from_own, 800);
  EXPECT_GT(from_other, 800);
}

TEST(DedupeSource, HundredPercentRepeatsTheFirstBuffer) {
  DedupeConfig config;
  config.percentage = 100;
  config.stream = 8;
  DedupeSource source(config, 2);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(fingerprint(source.next()), fingerprint_of(8, 0));
  EXPECT_EQ(source.unique_buffers(), 0u);
}

}  // namespace
}  // namespace sluice
