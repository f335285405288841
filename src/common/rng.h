#pragma once
// Rng: xoshiro256** (Blackman & Vigna), fast and with a 2^256 period; seeded through splitmix64 so that
// nearby seeds give unrelated streams. Not for cryptography. Deterministic for a given seed.
#include <cstdint>
#include <cstring>
#include <span>

namespace sluice {

// 2^64 / golden ratio: splitmix64's increment, and a good odd multiplier for spreading indexes.
inline constexpr std::uint64_t kGolden = 0x9e3779b97f4a7c15ull;

// splitmix64's finaliser: a bijection of 64-bit words under which nearby inputs give unrelated outputs.
constexpr std::uint64_t mix64(std::uint64_t z) noexcept {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

class Rng {
 public:
  explicit Rng(std::uint64_t seed = 0) noexcept { reseed(seed); }
  void reseed(std::uint64_t seed) noexcept {
    for (auto& word : state_) {
      seed += kGolden;
      word = mix64(seed);
    }
  }
  std::uint64_t next() noexcept {
    const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }
  // Uniform in [0, bound) without modulo bias worth mentioning (Lemire's multiply-shift).
  std::uint64_t below(std::uint64_t bound) noexcept {
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(next()) * bound) >> 64);
  }
  // Uniform in [0, 1).
  double uniform() noexcept { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) noexcept { return (x << k) | (x >> (64 - k)); }
  std::uint64_t state_[4];
};

// Fills `out` with the generator's output: incompressible, and fresh for every call.
inline void fill_random(std::span<unsigned char> out, Rng& rng) noexcept {
  std::size_t i = 0;
  for (; i + 8 <= out.size(); i += 8) {
    const std::uint64_t word = rng.next();
    std::memcpy(out.data() + i, &word, 8);
  }
  if (i < out.size()) {
    const std::uint64_t word = rng.next();
    std::memcpy(out.data() + i, &word, out.size() - i);
  }
}

}  // namespace sluice
