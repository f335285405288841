#pragma once
// Non-uniform block-index generators for random_distribution (fio semantics):
//  - zipf:theta   P(rank k) proportional to 1/k^theta over n ranks, sampled by rejection-inversion
//                 (Hoermann & Derflinger 1996): O(1) expected per sample, O(1) setup, no table.
//  - pareto:h     fio's definition: rank = (n-1) * u^(log h / log(1-h)); the hottest share `1-h` of the
//                 blocks receives the share `h` of the ios (h=0.8: 20% of blocks get 80%).
//  - normal:sigma centred on the middle of the region, sigma in percent of the region, truncated to it.
// Zipf and pareto ranks go through BlockScrambler so the hot blocks are spread over the region instead of
// sitting at its start (fio hashes the rank for the same reason; a bijection keeps the shape exact).
// Normal is not scrambled: its point is a hot spot around the middle.
//  - zoned, zoned_abs (fio's zone_split): a direction's ios pick a zone by its access share, then a uniform
//                 block in it; zones follow each other from the region's start (fio, io_u.c).
#include <array>
#include <cstdint>
#include <vector>

#include "common/direction.h"
#include "common/rng.h"
#include "job/distribution.h"

namespace sluice {

// A bijection of [0, n) that looks random: an invertible mix on the next power of two, cycle-walked
// until the result falls below n (at most ~2 rounds on average).
class BlockScrambler {
 public:
  BlockScrambler(std::uint64_t n = 1, std::uint64_t key = 0) noexcept;
  std::uint64_t operator()(std::uint64_t index) const noexcept;

 private:
  std::uint64_t mix(std::uint64_t x) const noexcept;
  std::uint64_t n_ = 1;
  std::uint64_t mask_ = 0;
  int half_shift_ = 1;
  std::uint64_t key_ = 0;
};

// Zipf over ranks 1..n with exponent theta > 0 (theta == 1 allowed).
class ZipfSampler {
 public:
  ZipfSampler(std::uint64_t n = 1, double theta = 1.0) noexcept;
  std::uint64_t operator()(Rng& rng) const noexcept;  // in [1, n]

 private:
  double h_integral(double x) const noexcept;
  double h_integral_inverse(double x) const noexcept;
  double h(double x) const noexcept;
  std::uint64_t n_ = 1;
  double theta_ = 1.0;
  double h_integral_x1_ = 0.0;
  double h_integral_n_ = 0.0;
  double s_ = 0.0;
};

// Draws a block index in [0, n) from a Distribution; uniform when kind is kRandom or the parameter is
// unusable (validation reports those; this stays total).
class BlockDistribution {
 public:
  BlockDistribution() = default;
  // n blocks of unit_bytes each (unit_bytes converts zoned_abs sizes to blocks).
  BlockDistribution(const Distribution& distribution, std::uint64_t n, std::uint64_t scramble_key,
                    std::uint64_t unit_bytes = 4096) noexcept;
  std::uint64_t operator()(Rng& rng) noexcept;  // the distribution of directions without zones
  std::uint64_t operator()(Rng& rng, Direction direction) noexcept;
  std::uint64_t size() const noexcept { return n_; }
  // zoned_abs: the blocks the zones end at (the largest over directions); 0 for other kinds. A value above
  // size() means the zones do not fit the region (fio: "zoned_abs sizes exceed file size").
  std::uint64_t zones_end() const noexcept { return zones_end_; }

 private:
  struct ZoneRange {
    std::uint64_t start = 0;   // first block
    std::uint64_t length = 1;  // blocks (at least one)
  };
  struct ZoneTable {
    std::vector<ZoneRange> zones;                // empty: uniform over the region
    std::array<std::uint8_t, 100> by_percent{};  // zone index for each percent of the ios (fio's zone_state_index)
  };
  void build_zones(const Distribution& distribution, std::uint64_t unit_bytes) noexcept;
  std::uint64_t normal(Rng& rng) noexcept;
  DistributionKind kind_ = DistributionKind::kRandom;
  PerDirection<ZoneTable> zone_tables_{};
  std::uint64_t zones_end_ = 0;
  std::uint64_t n_ = 1;
  ZipfSampler zipf_;
  double pareto_power_ = 1.0;
  double normal_sigma_ = 1.0;
  bool have_spare_ = false;
  double spare_ = 0.0;
  BlockScrambler scrambler_;
};

}  // namespace sluice
