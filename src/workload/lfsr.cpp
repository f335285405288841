#include "workload/lfsr.h"

#include <array>

namespace sluice {
namespace {

// Feedback taps (bit positions counted from 1) of one maximal-length register per width, from the public
// tables of primitive trinomials and pentanomials (Xilinx XAPP052). Each polynomial was checked primitive over
// GF(2) (irreducible, and x has order 2^n - 1); tests/workload/lfsr_test.cpp walks the full period of the
// widths up to 20.
constexpr std::array<std::array<std::uint8_t, 6>, 65> kTaps = {{
    {},
    {{1}},
    {{2, 1}},
    {{3, 2}},
    {{4, 3}},
    {{5, 3}},
    {{6, 5}},
    {{7, 6}},
    {{8, 6, 5, 4}},
    {{9, 5}},
    {{10, 7}},
    {{11, 9}},
    {{12, 6, 4, 1}},
    {{13, 4, 3, 1}},
    {{14, 5, 3, 1}},
    {{15, 14}},
    {{16, 15, 13, 4}},
    {{17, 14}},
    {{18, 11}},
    {{19, 6, 2, 1}},
    {{20, 17}},
    {{21, 19}},
    {{22, 21}},
    {{23, 18}},
    {{24, 23, 22, 17}},
    {{25, 22}},
    {{26, 6, 2, 1}},
    {{27, 5, 2, 1}},
    {{28, 25}},
    {{29, 27}},
    {{30, 6, 4, 1}},
    {{31, 28}},
    {{32, 22, 2, 1}},
    {{33, 20}},
    {{34, 27, 2, 1}},
    {{35, 33}},
    {{36, 25}},
    {{37, 5, 4, 3, 2, 1}},
    {{38, 6, 5, 1}},
    {{39, 35}},
    {{40, 38, 21, 19}},
    {{41, 38}},
    {{42, 41, 20, 19}},
    {{43, 42, 38, 37}},
    {{44, 43, 18, 17}},
    {{45, 44, 42, 41}},
    {{46, 45, 26, 25}},
    {{47, 42}},
    {{48, 47, 21, 20}},
    {{49, 40}},
    {{50, 49, 24, 23}},
    {{51, 50, 36, 35}},
    {{52, 49}},
    {{53, 52, 38, 37}},
    {{54, 53, 18, 17}},
    {{55, 31}},
    {{56, 55, 35, 34}},
    {{57, 50}},
    {{58, 39}},
    {{59, 58, 38, 37}},
    {{60, 59}},
    {{61, 60, 46, 45}},
    {{62, 61, 6, 5}},
    {{63, 62}},
    {{64, 63, 61, 60}},
}};

std::uint64_t period_of(int bits) noexcept { return bits == 64 ? ~0ull : (1ull << bits) - 1; }

}  // namespace

Lfsr::Lfsr(std::uint64_t count, std::uint64_t seed) noexcept : count_(count) {
  bits_ = 1;
  while (bits_ < 64 && period_of(bits_) < count) ++bits_;
  for (std::uint8_t tap : kTaps[static_cast<std::size_t>(bits_)]) {
    if (tap != 0) feedback_ |= 1ull << (tap - 1);
  }
  start_ = seed % period_of(bits_) + 1;  // any nonzero state lies on the one cycle
  restart();
}

void Lfsr::restart() noexcept {
  state_ = start_;
  given_ = 0;
}

bool Lfsr::next(std::uint64_t& value) noexcept {
  if (given_ >= count_) return false;
  // Galois form: shift right, and fold the feedback in when a 1 falls out. States run over 1..2^bits - 1;
  // the value is the state less one.
  do {
    const std::uint64_t out = state_ & 1;
    state_ >>= 1;
    if (out != 0) state_ ^= feedback_;
  } while (state_ - 1 >= count_);
  ++given_;
  value = state_ - 1;
  return true;
}

}  // namespace sluice
