// workload/sprandom: the region plan against values computed another way (fio 3.42's own debug output, a
// reference resampling written here with a binary search, and the continuous limit v_gc^(1 - r/(n-1))), and
// the offset sequence: every block written, regions of region_writes writes, and each region's share of
// blocks written again later close to its target.
#include "workload/sprandom.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <vector>

namespace sluice {
namespace {

// Reference for sprandom_validity: the same curve, resampled by a binary search for each point's segment.
std::vector<double> reference_validity(std::uint32_t n, double op) {
  const double gc = 1.0 - 1.0 / (0.5 / op + 0.7);
  std::vector<double> y(n), x(n);
  double sum = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    y[i] = n == 1 ? 1.0 : 1.0 - (1.0 - gc) * i / (n - 1.0);
    sum += 1.0 / y[i];
    x[i] = sum;
  }
  std::vector<double> out(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    const double at = n == 1 ? x[0] : x[0] + (x[n - 1] - x[0]) * i / (n - 1.0);
    const auto hi = std::lower_bound(x.begin(), x.end(), at);
    if (hi == x.begin()) {
      out[i] = y[0];
    } else if (hi == x.end()) {
      out[i] = y[n - 1];
    } else {
      const std::size_t k = static_cast<std::size_t>(hi - x.begin());
      out[i] = y[k - 1] + (y[k] - y[k - 1]) * (at - x[k - 1]) / (x[k] - x[k - 1]);
    }
  }
  std::reverse(out.begin(), out.end());
  return out;
}

// Invalidation shares (1/10000) per region printed by fio 3.42 --debug=sprandom ("Invalidation[i]" lines) for
// size=16m bs=4k: the peer tool's values, not sluice's.
const std::vector<std::uint32_t> kFioOp15Regions100 = {
    2479, 2458, 2436, 2414, 2392, 2370, 2348, 2326, 2304, 2282, 2260, 2237, 2215, 2193, 2170, 2148, 2125,
    2102, 2080, 2057, 2034, 2011, 1988, 1965, 1942, 1918, 1895, 1872, 1848, 1825, 1801, 1778, 1754, 1730,
    1706, 1682, 1658, 1634, 1610, 1586, 1562, 1538, 1513, 1489, 1464, 1440, 1415, 1390, 1365, 1340, 1315,
    1290, 1265, 1240, 1215, 1190, 1164, 1139, 1113, 1088, 1062, 1036, 1010, 984,  958,  932,  906,  880,
    854,  827,  801,  774,  748,  721,  694,  668,  641,  614,  587,  559,  532,  505,  478,  450,  423,
    395,  367,  340,  312,  284,  256,  228,  199,  171,  143,  114,  86,   57,   29,   0};

TEST(SprandomPlan, InvalidSharesMatchFio342) {
  const SprandomPlan plan = plan_sprandom(16ull << 20, 4096, 100, 0.15);
  EXPECT_EQ(plan.invalid_per_10000, kFioOp15Regions100);
  // fio's debug summary: physical_size 19296256, region_size 192962, region_write_count 47.
  EXPECT_EQ(plan.physical_bytes, 19296256u);
  EXPECT_EQ(plan.region_bytes, 192962u);
  EXPECT_EQ(plan.region_writes, 47u);
  const SprandomPlan few = plan_sprandom(16ull << 20, 4096, 7, 0.28);
  const std::vector<std::uint32_t> fio_op28_regions7 = {4023, 3487, 2906, 2273, 1581, 824, 0};
  EXPECT_EQ(few.invalid_per_10000, fio_op28_regions7);
  EXPECT_EQ(few.physical_bytes, 21475328u);
  EXPECT_EQ(few.region_writes, 749u);
}

TEST(SprandomPlan, ValidityMatchesAReferenceResampling) {
  for (std::uint32_t n : {1u, 2u, 3u, 10u, 100u, 1000u}) {
    for (double op : {0.05, 0.15, 0.28, 0.5, 0.9}) {
      const std::vector<double> got = sprandom_validity(n, op);
      const std::vector<double> want = reference_validity(n, op);
      ASSERT_EQ(got.size(), want.size());
      for (std::uint32_t r = 0; r < n; ++r) EXPECT_NEAR(got[r], want[r], 1e-12) << n << " " << op << " " << r;
    }
  }
}

TEST(SprandomPlan, ValidityApproachesTheGeometricClosedForm) {
  const std::uint32_t n = 4000;
  for (double op : {0.07, 0.15, 0.28}) {
    const double gc = 1.0 - 1.0 / (0.5 / op + 0.7);
    const std::vector<double> validity = sprandom_validity(n, op);
    EXPECT_NEAR(validity.front(), gc, 1e-12);
    EXPECT_DOUBLE_EQ(validity.back(), 1.0);
    for (std::uint32_t r = 0; r < n; r += 97) {
      EXPECT_NEAR(validity[r], std::pow(gc, 1.0 - r / (n - 1.0)), 1e-3) << op << " " << r;
    }
  }
}

TEST(SprandomPlan, PhysicalCapacityRoundsUpToBlocks) {
  // 1000000 x 1.07 = 1070000 -> 262 blocks of 4096 (1073152).
  EXPECT_EQ(sprandom_physical_bytes(1000000, 0.07, 4096), 1073152u);
  EXPECT_EQ(sprandom_physical_bytes(1ull << 30, 0.25, 4096), (1ull << 30) + (1ull << 28));
  EXPECT_EQ(sprandom_physical_bytes(3000, 0.1, 512), 3584u);  // 3300 -> 7 x 512
}

TEST(SprandomPlan, ProblemsNameTheOption) {
  // 16 MiB at 15%: 4711 blocks; 5000 regions hold none (fio divides by zero there).
  EXPECT_NE(sprandom_plan_problem(plan_sprandom(16ull << 20, 4096, 5000, 0.15), 0).find("spr_num_regions=5000"),
            std::string::npos);
  // fio: "spr_cs [1048576] must be smaller than region_sz [192962] which means [18] regions allowed".
  const std::string cache = sprandom_plan_problem(plan_sprandom(16ull << 20, 4096, 100, 0.15), 1 << 20);
  EXPECT_NE(cache.find("spr_cs=1048576"), std::string::npos) << cache;
  EXPECT_NE(cache.find("192962"), std::string::npos) << cache;
  EXPECT_NE(cache.find("at most 18 regions"), std::string::npos) << cache;
  EXPECT_EQ(sprandom_plan_problem(plan_sprandom(16ull << 20, 4096, 100, 0.15), 100 << 10), "");
}

struct Sequence {
  std::vector<std::uint64_t> blocks;
  std::uint64_t blocks_in_lfsr = 0;
};

Sequence write_all(const SprandomPlan& plan, std::uint64_t cache, std::uint64_t seed) {
  Sequence s;
  s.blocks_in_lfsr = plan.logical_bytes / plan.block_bytes;
  SprandomOffsets offsets(plan, cache, s.blocks_in_lfsr, seed);
  std::uint64_t block = 0;
  while (offsets.next_write(block)) s.blocks.push_back(block);
  EXPECT_FALSE(offsets.next_write(block));  // stays over
  return s;
}

// For each region (consecutive region_writes writes), how many of its writes are written again later.
std::vector<std::uint64_t> overwritten_per_region(const std::vector<std::uint64_t>& blocks, std::uint64_t per_region) {
  std::unordered_map<std::uint64_t, std::size_t> last;
  for (std::size_t i = 0; i < blocks.size(); ++i) last[blocks[i]] = i;
  std::vector<std::uint64_t> counts((blocks.size() + per_region - 1) / per_region, 0);
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    if (last[blocks[i]] != i) ++counts[i / per_region];
  }
  return counts;
}

void expect_sprandom_shape(const SprandomPlan& plan, const Sequence& s) {
  std::vector<bool> seen(s.blocks_in_lfsr, false);
  for (std::uint64_t b : s.blocks) {
    ASSERT_LT(b, s.blocks_in_lfsr);
    seen[b] = true;
  }
  EXPECT_EQ(std::count(seen.begin(), seen.end(), false), 0) << "every block is written at least once";
  EXPECT_LE(s.blocks.size(), (plan.regions + 1) * plan.region_writes);
  const auto counts = overwritten_per_region(s.blocks, plan.region_writes);
  const std::size_t full = s.blocks.size() / plan.region_writes;
  for (std::size_t r = 0; r + 1 < full && r < plan.regions; ++r) {
    const double p = (plan.invalid_per_10000[r] + 1.0) / (kSprandomPrecision + 1.0);
    const double mean = p * static_cast<double>(plan.region_writes);
    const double sigma = std::sqrt(mean * (1.0 - p));
    EXPECT_NEAR(static_cast<double>(counts[r]), mean, 5.0 * sigma + 1.0) << "region " << r;
  }
}

TEST(SprandomOffsets, EachRegionLosesItsShareAndEveryBlockIsWritten) {
  const SprandomPlan plan = plan_sprandom(64ull << 20, 4096, 100, 0.15);
  const Sequence s = write_all(plan, 0, 7);
  expect_sprandom_shape(plan, s);
  // The total is the logical blocks plus the repeats, close to the physical capacity.
  const std::uint64_t whole_blocks = plan.physical_bytes / plan.block_bytes;  // the blocks that fit, as written
  const double physical_blocks = static_cast<double>(whole_blocks);
  EXPECT_NEAR(static_cast<double>(s.blocks.size()), physical_blocks, 0.02 * physical_blocks);
}

TEST(SprandomOffsets, RepeatsComeInTheNextRegion) {
  const SprandomPlan plan = plan_sprandom(16ull << 20, 4096, 50, 0.2);
  for (std::uint64_t cache : {std::uint64_t{0}, std::uint64_t{64} << 10}) {
    const Sequence s = write_all(plan, cache, 3);
    expect_sprandom_shape(plan, s);
    std::unordered_map<std::uint64_t, std::size_t> previous;
    for (std::size_t i = 0; i < s.blocks.size(); ++i) {
      const auto it = previous.find(s.blocks[i]);
      if (it != previous.end()) {
        EXPECT_EQ(i / plan.region_writes, it->second / plan.region_writes + 1) << "write " << i << " cache " << cache;
      }
      previous[s.blocks[i]] = i;
    }
  }
}

TEST(SprandomOffsets, ACacheMovesTheRepeatsToTheRegionsEnd) {
  const SprandomPlan plan = plan_sprandom(16ull << 20, 4096, 20, 0.15);
  const Sequence s = write_all(plan, 64 << 10, 11);
  // In region 1 the repeats of region 0 come last: after the first repeat, every write is a repeat.
  std::vector<bool> seen(s.blocks_in_lfsr, false);
  for (std::size_t i = 0; i < plan.region_writes; ++i) seen[s.blocks[i]] = true;
  bool repeating = false;
  for (std::size_t i = plan.region_writes; i < 2 * plan.region_writes; ++i) {
    const bool repeat = seen[s.blocks[i]];
    if (repeating) {
      EXPECT_TRUE(repeat) << "write " << i;
    }
    repeating = repeating || repeat;
  }
  EXPECT_TRUE(repeating);
}

TEST(SprandomOffsets, OneRegionWritesEachBlockOnce) {
  // fio 3.42 with spr_num_regions=1 over 16 MiB writes 4096 blocks: the region holds more than the LFSR gives.
  const Sequence s = write_all(plan_sprandom(16ull << 20, 4096, 1, 0.15), 0, 1);
  EXPECT_EQ(s.blocks.size(), 4096u);
}

TEST(SprandomOffsets, TheSeedDecidesTheOrder) {
  const SprandomPlan plan = plan_sprandom(4ull << 20, 4096, 10, 0.15);
  EXPECT_EQ(write_all(plan, 0, 5).blocks, write_all(plan, 0, 5).blocks);
  EXPECT_NE(write_all(plan, 0, 5).blocks, write_all(plan, 0, 6).blocks);
}

TEST(SprandomOffsets, OtherDirectionsShareTheLfsr) {
  const SprandomPlan plan = plan_sprandom(4ull << 20, 4096, 10, 0.15);
  SprandomOffsets offsets(plan, 0, 1024, 9);
  std::vector<bool> seen(1024, false);
  std::uint64_t block = 0;
  std::size_t reads = 0;
  for (bool read = false;; read = !read) {
    if (read ? !offsets.next_other(block) : !offsets.next_write(block)) break;
    if (read) ++reads;
    seen[block] = true;
  }
  EXPECT_GT(reads, 400u);
  EXPECT_EQ(std::count(seen.begin(), seen.end(), false), 0);
}

}  // namespace
}  // namespace sluice
