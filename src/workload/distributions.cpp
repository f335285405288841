#include "workload/distributions.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numbers>

namespace sluice {

// ---- BlockScrambler

BlockScrambler::BlockScrambler(std::uint64_t n, std::uint64_t key) noexcept : n_(n == 0 ? 1 : n) {
  const int bits = std::max(2, static_cast<int>(std::bit_width(n_ - 1)));
  mask_ = bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
  half_shift_ = std::max(1, bits / 2);
  key_ = key & mask_;
}

std::uint64_t BlockScrambler::mix(std::uint64_t x) const noexcept {
  // Each step is a bijection on `bits`-bit words: xor with a key, multiply by an odd constant (mod 2^bits),
  // xor-shift right.
  for (std::uint64_t multiplier : {0x9e3779b97f4a7c15ull, 0xbf58476d1ce4e5b9ull}) {
    x = (x ^ key_) & mask_;
    x = (x * multiplier) & mask_;
    x ^= x >> half_shift_;
  }
  return x;
}

std::uint64_t BlockScrambler::operator()(std::uint64_t index) const noexcept {
  std::uint64_t x = mix(index);
  while (x >= n_) x = mix(x);  // cycle walking: stays a bijection of [0, n)
  return x;
}

// ---- ZipfSampler (rejection-inversion; H is the integral of h(x) = x^-theta)

namespace {
// (exp(x) - 1) / x and log1p(x) / x, accurate near 0 (theta close to 1).
double expm1_over_x(double x) noexcept { return std::abs(x) > 1e-8 ? std::expm1(x) / x : 1.0 + x / 2.0; }
double log1p_over_x(double x) noexcept { return std::abs(x) > 1e-8 ? std::log1p(x) / x : 1.0 - x / 2.0; }
}  // namespace

ZipfSampler::ZipfSampler(std::uint64_t n, double theta) noexcept : n_(n == 0 ? 1 : n), theta_(theta) {
  h_integral_x1_ = h_integral(1.5) - 1.0;
  h_integral_n_ = h_integral(static_cast<double>(n_) + 0.5);
  s_ = 2.0 - h_integral_inverse(h_integral(2.5) - h(2.0));
}

double ZipfSampler::h(double x) const noexcept { return std::exp(-theta_ * std::log(x)); }

double ZipfSampler::h_integral(double x) const noexcept {
  const double log_x = std::log(x);
  return expm1_over_x((1.0 - theta_) * log_x) * log_x;
}

double ZipfSampler::h_integral_inverse(double x) const noexcept {
  double t = x * (1.0 - theta_);
  if (t < -1.0) t = -1.0;  // rounding guard
  return std::exp(log1p_over_x(t) * x);
}

std::uint64_t ZipfSampler::operator()(Rng& rng) const noexcept {
  for (;;) {
    const double u = h_integral_n_ + rng.uniform() * (h_integral_x1_ - h_integral_n_);
    const double x = h_integral_inverse(u);
    double k = std::floor(x + 0.5);
    if (k < 1.0) k = 1.0;
    if (k > static_cast<double>(n_)) k = static_cast<double>(n_);
    if (k - x <= s_ || u >= h_integral(k + 0.5) - h(k)) return static_cast<std::uint64_t>(k);
  }
}

// ---- BlockDistribution

BlockDistribution::BlockDistribution(const Distribution& distribution, std::uint64_t n, std::uint64_t scramble_key,
                                     std::uint64_t unit_bytes) noexcept
    : kind_(distribution.kind), n_(n == 0 ? 1 : n), scrambler_(n_, scramble_key) {
  const double p = distribution.parameter;
  switch (kind_) {
    case DistributionKind::kZoned:
    case DistributionKind::kZonedAbs:
      build_zones(distribution, unit_bytes == 0 ? 1 : unit_bytes);
      break;
    case DistributionKind::kZipf:
      if (!(p > 0.0))
        kind_ = DistributionKind::kRandom;
      else
        zipf_ = ZipfSampler(n_, p);
      break;
    case DistributionKind::kPareto:
      if (!(p > 0.0 && p < 1.0))
        kind_ = DistributionKind::kRandom;
      else
        pareto_power_ = std::log(p) / std::log(1.0 - p);
      break;
    case DistributionKind::kNormal:
      if (!(p > 0.0))
        kind_ = DistributionKind::kRandom;
      else
        normal_sigma_ = p / 100.0 * static_cast<double>(n_);
      break;
    case DistributionKind::kSequence:  // not drawn: workload/block_sequence.h; uniform if asked here
      kind_ = DistributionKind::kRandom;
      break;
    case DistributionKind::kRandom:
      break;
  }
}

void BlockDistribution::build_zones(const Distribution& distribution, std::uint64_t unit_bytes) noexcept {
  const bool absolute = kind_ == DistributionKind::kZonedAbs;
  for (int d = 0; d < kNumDirections; ++d) {
    ZoneTable& table = zone_tables_[d];
    std::uint64_t size_before = 0;  // percent (zoned) or bytes (zoned_abs) of the zones before this one
    std::size_t percent = 0;
    for (const AccessZone& zone : distribution.zones[d]) {
      ZoneRange range;
      if (absolute) {
        range.start = size_before / unit_bytes;
        range.length = std::max<std::uint64_t>((size_before + zone.size) / unit_bytes - range.start, 1);
        zones_end_ = std::max(zones_end_, range.start + range.length);
      } else {
        range.start = size_before * n_ / 100;
        range.length = std::max<std::uint64_t>(n_ * zone.size / 100, 1);
      }
      size_before += zone.size;
      for (std::uint32_t i = 0; i < zone.access_percent && percent < table.by_percent.size(); ++i) {
        table.by_percent[percent++] = static_cast<std::uint8_t>(table.zones.size());
      }
      table.zones.push_back(range);
    }
  }
}

std::uint64_t BlockDistribution::operator()(Rng& rng, Direction direction) noexcept {
  if (kind_ != DistributionKind::kZoned && kind_ != DistributionKind::kZonedAbs) return (*this)(rng);
  const ZoneTable& table = zone_tables_[index_of(direction)];
  if (table.zones.empty()) return rng.below(n_);
  const ZoneRange& zone = table.zones[table.by_percent[rng.below(100)]];
  // A zone that reaches past the region (zoned_abs; refused before the run) is clipped, never overrun.
  const std::uint64_t start = std::min(zone.start, n_ - 1);
  return start + rng.below(std::min(zone.length, n_ - start));
}

std::uint64_t BlockDistribution::normal(Rng& rng) noexcept {
  const double centre = static_cast<double>(n_) / 2.0;
  for (;;) {
    double z;
    if (have_spare_) {
      z = spare_;
      have_spare_ = false;
    } else {  // Box-Muller: two normals per two uniforms
      const double radius = std::sqrt(-2.0 * std::log1p(-rng.uniform()));
      const double angle = 2.0 * std::numbers::pi * rng.uniform();
      z = radius * std::cos(angle);
      spare_ = radius * std::sin(angle);
      have_spare_ = true;
    }
    const double x = std::floor(centre + z * normal_sigma_);
    if (x >= 0.0 && x < static_cast<double>(n_)) return static_cast<std::uint64_t>(x);
  }
}

std::uint64_t BlockDistribution::operator()(Rng& rng) noexcept {
  switch (kind_) {
    case DistributionKind::kZipf:
      return scrambler_(zipf_(rng) - 1);
    case DistributionKind::kPareto: {
      // fio's rank counts from the cold end; flip it so rank 0 is the hottest before scrambling.
      const double rank = static_cast<double>(n_) * std::pow(rng.uniform(), pareto_power_);
      const auto hot_rank = n_ - 1 - std::min(n_ - 1, static_cast<std::uint64_t>(rank));
      return scrambler_(hot_rank);
    }
    case DistributionKind::kNormal:
      return normal(rng);
    case DistributionKind::kZoned:
    case DistributionKind::kZonedAbs:
    case DistributionKind::kSequence:
    case DistributionKind::kRandom:
      break;
  }
  return rng.below(n_);
}

}  // namespace sluice
