#pragma once
// PostmarkRng: the pseudo-random sequence PostMark 1.5x draws from, so a seed creates, reads, appends and
// deletes the same files as the original. It is MT19937 (Matsumoto & Nishimura) with the 1998 seeding
// routine (each state word from two steps of the linear congruence x -> 69069x + 1), not the 2002
// init_genrand that std::mt19937 uses, so std::mt19937 cannot stand in for it.
#include <array>
#include <cstdint>

namespace sluice {

class PostmarkRng {
 public:
  explicit PostmarkRng(std::uint32_t seed) noexcept;

  // The next 32-bit output.
  std::uint32_t next() noexcept;

  // PostMark's RND(x): next() % x for x > 0; 0 for x <= 0 *without drawing*, so a fixed size or a single
  // subdirectory consumes nothing from the sequence.
  std::uint32_t below(std::int64_t x) noexcept {
    return x > 0 ? static_cast<std::uint32_t>(next() % static_cast<std::uint64_t>(x)) : 0;
  }

 private:
  static constexpr int kN = 624;
  static constexpr int kM = 397;
  void refill() noexcept;

  std::array<std::uint32_t, kN> state_{};
  int index_ = kN;
};

}  // namespace sluice
