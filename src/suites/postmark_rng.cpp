#include "suites/postmark_rng.h"

namespace sluice {
namespace {

constexpr std::uint32_t kMatrixA = 0x9908b0dfu;
constexpr std::uint32_t kUpperMask = 0x80000000u;
constexpr std::uint32_t kLowerMask = 0x7fffffffu;

std::uint32_t twist(std::uint32_t upper_from, std::uint32_t lower_from, std::uint32_t far) noexcept {
  const std::uint32_t y = (upper_from & kUpperMask) | (lower_from & kLowerMask);
  return far ^ (y >> 1) ^ ((y & 1u) ? kMatrixA : 0u);
}

}  // namespace

PostmarkRng::PostmarkRng(std::uint32_t seed) noexcept {
  // The 1998 seeding: the high halves of two successive congruence steps make one state word.
  std::uint32_t x = seed;
  for (std::uint32_t& word : state_) {
    word = x & 0xffff0000u;
    x = 69069u * x + 1u;
    word |= (x & 0xffff0000u) >> 16;
    x = 69069u * x + 1u;
  }
}

void PostmarkRng::refill() noexcept {
  for (int k = 0; k < kN; ++k) {
    const int next_index = (k + 1) % kN;
    const int far_index = (k + kM) % kN;
    state_[static_cast<std::size_t>(k)] =
        twist(state_[static_cast<std::size_t>(k)], state_[static_cast<std::size_t>(next_index)],
              state_[static_cast<std::size_t>(far_index)]);
  }
  index_ = 0;
}

std::uint32_t PostmarkRng::next() noexcept {
  if (index_ >= kN) refill();
  std::uint32_t y = state_[static_cast<std::size_t>(index_++)];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  y ^= y >> 18;
  return y;
}

}  // namespace sluice
