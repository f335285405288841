// zonemode=strided: the offsets fio 3.33 issues for the same jobs (its write_iolog, checked by hand and in
// tests/run/it_zones_test.cpp), zones past the job's size up to the file's end, a zone cut by the file's end.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "job/job_spec.h"
#include "workload/io_pattern.h"
#include "workload_test_helpers.h"

namespace sluice {
namespace {

using testing::drain;
using testing::job_for;
using testing::total_bytes;

using testing::kKiB;
using testing::kMiB;

JobSpec strided(RwMode rw, std::uint64_t zone_size, std::uint64_t zone_range, std::uint64_t zone_skip) {
  JobSpec job = job_for(rw, 64 * kKiB);
  job.zones.zone_strided = true;
  job.zones.zone_size = zone_size;
  job.zones.zone_range = zone_range;
  job.zones.zone_skip = zone_skip;
  return job;
}

std::vector<std::uint64_t> blocks_of(const std::vector<NextIo>& ios) {
  std::vector<std::uint64_t> blocks;
  for (const auto& io : ios) blocks.push_back(io.offset / (64 * kKiB));
  return blocks;
}

TEST(IoPatternZones, SequentialReadsZoneSizeThenSkipsAndWrapsAtTheFileEnd) {
  // fio --size=8m --bs=64k --rw=read --zonemode=strided --zonesize=256k --zoneskip=1m
  IoPattern pattern(strided(RwMode::kRead, 256 * kKiB, 0, kMiB), {{0, 8 * kMiB, 8 * kMiB}}, 1);
  const auto ios = drain(pattern);
  ASSERT_EQ(ios.size(), 128u);  // the job's size, as fio
  const std::vector<std::uint64_t> first_pass = {0,  1,  2,  3,  20, 21, 22,  23,  40,  41,  42,  43,  60,  61,
                                                 62, 63, 80, 81, 82, 83, 100, 101, 102, 103, 120, 121, 122, 123};
  const auto blocks = blocks_of(ios);
  for (std::size_t i = 0; i < blocks.size(); ++i) EXPECT_EQ(blocks[i], first_pass[i % first_pass.size()]) << i;
}

TEST(IoPatternZones, ZoneSizeAboveTheRangeGoesOverTheZoneAgain) {
  // zonesize=1m zonerange=256k zoneskip=256k: each 256 KiB zone is read 4 times, then 512 KiB further on.
  IoPattern pattern(strided(RwMode::kRead, kMiB, 256 * kKiB, 256 * kKiB), {{0, 8 * kMiB, 8 * kMiB}}, 1);
  const auto blocks = blocks_of(drain(pattern));
  ASSERT_EQ(blocks.size(), 128u);
  for (std::size_t i = 0; i < 16; ++i) EXPECT_EQ(blocks[i], i % 4);
  for (std::size_t i = 16; i < 32; ++i) EXPECT_EQ(blocks[i], 8 + i % 4);
}

TEST(IoPatternZones, ZoneSizeBelowTheRangeUsesThePartAtTheZoneStart) {
  IoPattern pattern(strided(RwMode::kWrite, 128 * kKiB, 512 * kKiB, 256 * kKiB), {{0, 8 * kMiB, 8 * kMiB}}, 1);
  const auto blocks = blocks_of(drain(pattern));
  ASSERT_EQ(blocks.size(), 128u);
  const std::vector<std::uint64_t> start = {0, 1, 12, 13, 24, 25, 36, 37};
  for (std::size_t i = 0; i < start.size(); ++i) EXPECT_EQ(blocks[i], start[i]);
}

TEST(IoPatternZones, RandomOffsetsStayInTheZoneEachBlockOncePerRange) {
  // zonesize=512k zonerange=256k: two passes over the zone's 4 blocks, each a permutation (the random map
  // starts over every zonerange bytes, as fio resets it).
  IoPattern pattern(strided(RwMode::kRandRead, 512 * kKiB, 256 * kKiB, kMiB), {{0, 8 * kMiB, 8 * kMiB}}, 7);
  const auto blocks = blocks_of(drain(pattern));
  ASSERT_EQ(blocks.size(), 128u);
  for (std::size_t group = 0; group < blocks.size() / 4; ++group) {
    const std::uint64_t zone_first = (group / 2 % 7) * 20;  // 7 zones of 1.25 MiB in 8 MiB
    std::set<std::uint64_t> seen(blocks.begin() + group * 4, blocks.begin() + group * 4 + 4);
    EXPECT_EQ(seen, (std::set<std::uint64_t>{zone_first, zone_first + 1, zone_first + 2, zone_first + 3})) << group;
  }
}

TEST(IoPatternZones, ZonesWalkToTheFileEndPastTheJobsSize) {
  // size=2m on an 8 MiB file: the zones go on past 2 MiB, as fio's walk up to the file's real size.
  IoPattern pattern(strided(RwMode::kRead, 256 * kKiB, 0, kMiB), {{0, 2 * kMiB, 8 * kMiB}}, 1);
  const auto blocks = blocks_of(drain(pattern));
  ASSERT_EQ(blocks.size(), 32u);
  EXPECT_EQ(blocks[4], 20u);
  EXPECT_EQ(blocks[27], 123u);
  EXPECT_EQ(blocks[28], 0u);
}

TEST(IoPatternZones, AZoneCutByTheFileEndIsUsedAsFarAsItGoes) {
  // 1.5 MiB file, 1 MiB zones: the second zone holds 0.5 MiB; no io ever crosses the file's end.
  IoPattern pattern(strided(RwMode::kRandWrite, kMiB, 0, 0), {{0, 1536 * kKiB, 1536 * kKiB}}, 3);
  const auto ios = drain(pattern);
  EXPECT_EQ(total_bytes(ios), 1536 * kKiB);
  for (const auto& io : ios) EXPECT_LE(io.offset + io.length, 1536 * kKiB);
  const auto blocks = blocks_of(ios);
  EXPECT_EQ(std::set<std::uint64_t>(blocks.begin(), blocks.begin() + 16).size(), 16u);  // zone 1: all 16
  for (std::size_t i = 16; i < blocks.size(); ++i) EXPECT_GE(blocks[i], 16u);           // zone 2: its 8
}

TEST(IoPatternZones, AnOffsetMovesTheFirstZone) {
  IoPattern pattern(strided(RwMode::kRead, 256 * kKiB, 0, kMiB), {{512 * kKiB, 2 * kMiB, 8 * kMiB}}, 1);
  const auto blocks = blocks_of(drain(pattern));
  ASSERT_EQ(blocks.size(), 32u);
  EXPECT_EQ(blocks[0], 8u);
  EXPECT_EQ(blocks[4], 28u);
}

TEST(IoPatternZones, IgnoredWithMoreThanOneFile) {
  IoPattern pattern(strided(RwMode::kRead, 256 * kKiB, 0, kMiB), {{0, kMiB, kMiB}, {0, kMiB, kMiB}}, 1);
  const auto ios = drain(pattern);
  ASSERT_EQ(ios.size(), 32u);
  EXPECT_EQ(ios[8].offset, 256 * kKiB);  // file 0's fifth io: straight on, no skip
}

}  // namespace
}  // namespace sluice
