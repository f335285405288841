#pragma once
// Little-endian fields at byte offsets of a buffer: fio's wire structures are read and written field by field
// at their offsets (never by casting a struct), so the layout lives in one place and the host's own struct
// packing plays no part. Internal to src/fionet.
#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace sluice::fionet {

inline void put_u8(std::uint8_t* p, std::size_t off, std::uint8_t v) noexcept { p[off] = v; }
inline void put_u16(std::uint8_t* p, std::size_t off, std::uint16_t v) noexcept {
  for (int i = 0; i < 2; ++i) p[off + i] = static_cast<std::uint8_t>(v >> (8 * i));
}
inline void put_u32(std::uint8_t* p, std::size_t off, std::uint32_t v) noexcept {
  for (int i = 0; i < 4; ++i) p[off + i] = static_cast<std::uint8_t>(v >> (8 * i));
}
inline void put_u64(std::uint8_t* p, std::size_t off, std::uint64_t v) noexcept {
  for (int i = 0; i < 8; ++i) p[off + i] = static_cast<std::uint8_t>(v >> (8 * i));
}
// fio sends doubles as their IEEE 754 bit pattern (its pack754 gives the same bits for finite values).
inline void put_f64(std::uint8_t* p, std::size_t off, double v) noexcept {
  put_u64(p, off, std::bit_cast<std::uint64_t>(v));
}
// A NUL-terminated string in a field of `size` bytes (cut to size - 1).
inline void put_text(std::uint8_t* p, std::size_t off, std::size_t size, std::string_view s) noexcept {
  const std::size_t n = s.size() < size ? s.size() : size - 1;
  std::memcpy(p + off, s.data(), n);
  p[off + n] = 0;
}

inline std::uint16_t get_u16(const std::uint8_t* p, std::size_t off) noexcept {
  return static_cast<std::uint16_t>(p[off] | (p[off + 1] << 8));
}
inline std::uint32_t get_u32(const std::uint8_t* p, std::size_t off) noexcept {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | p[off + i];
  return v;
}
inline std::uint64_t get_u64(const std::uint8_t* p, std::size_t off) noexcept {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[off + i];
  return v;
}
inline double get_f64(const std::uint8_t* p, std::size_t off) noexcept {
  return std::bit_cast<double>(get_u64(p, off));
}
// The text of a NUL-terminated field of at most `size` bytes.
inline std::string_view get_text(const std::uint8_t* p, std::size_t off, std::size_t size) noexcept {
  const char* s = reinterpret_cast<const char*>(p + off);
  std::size_t n = 0;
  while (n < size && s[n] != 0) ++n;
  return {s, n};
}

}  // namespace sluice::fionet
