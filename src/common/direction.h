#pragma once
// The data directions sluice accounts separately, in fio's order (read, write, trim).
#include <array>
#include <cstdint>
#include <string_view>

namespace sluice {

enum class Direction : std::uint8_t { kRead = 0, kWrite = 1, kTrim = 2 };
inline constexpr int kNumDirections = 3;
inline constexpr std::array<Direction, kNumDirections> kAllDirections = {Direction::kRead, Direction::kWrite,
                                                                         Direction::kTrim};

constexpr int index_of(Direction d) noexcept { return static_cast<int>(d); }

// "read", "write", "trim": the key fio's JSON uses for the direction.
constexpr std::string_view direction_name(Direction d) noexcept {
  switch (d) {
    case Direction::kRead:
      return "read";
    case Direction::kWrite:
      return "write";
    case Direction::kTrim:
      return "trim";
  }
  return "?";
}

// A per-direction value, indexed by Direction (fio's "bs=4k,64k" style options map onto this).
template <typename T>
using PerDirection = std::array<T, kNumDirections>;

}  // namespace sluice
