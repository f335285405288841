#pragma once
// Lfsr: fio's random_generator=lfsr. A maximal-length linear feedback shift register of the fewest bits
// whose period (2^bits - 1) reaches `count`, read as values 0..count-1: each value comes exactly once per
// period, in a scrambled but repeatable order, with no coverage map. Values the register reaches beyond
// count-1 are stepped over (fewer than one per value on average, since 2^bits - 1 < 2 * count).
//
// Threads: one per owner, not shared. next() never allocates.
#include <cstdint>

namespace sluice {

class Lfsr {
 public:
  Lfsr() = default;
  // A register for the values 0..count-1 (count >= 1), starting at a state chosen by `seed`.
  Lfsr(std::uint64_t count, std::uint64_t seed) noexcept;

  // The next value of the current period; false once all `count` values of the period were given.
  bool next(std::uint64_t& value) noexcept;
  // Starts the period over from the seed's state: the same order again (fio resets its LFSR per pass).
  void restart() noexcept;

  std::uint64_t count() const noexcept { return count_; }
  int bits() const noexcept { return bits_; }

 private:
  std::uint64_t feedback_ = 0;  // the tap mask of a primitive polynomial of degree bits_
  std::uint64_t start_ = 1;     // nonzero: zero is the register's fixed point
  std::uint64_t state_ = 1;
  std::uint64_t count_ = 0;
  std::uint64_t given_ = 0;  // values given in the current period
  int bits_ = 0;
};

}  // namespace sluice
