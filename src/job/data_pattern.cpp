// fio's data patterns (verify_pattern, buffer_pattern), parsed as fio's lib/pattern.c does. Elements follow
// each other without separators:
//   "text"      the bytes of the text (no escapes)
//   'FILE'      the contents of FILE
//   0xHEX       bytes in the order written; an odd digit count reads the first digit alone (0xabc = 0a bc)
//   DECIMAL     from -2147483648 to 2147483647, little-endian in the fewest bytes (66 = 42, 0 = 00;
//               negatives take 4: -12 = f4 ff ff ff); the number ends where "0x" begins ("-120xab" = -12, 0xab)
//   %o          (verify_pattern only) 8 bytes replaced by the chunk's offset, little-endian
// sluice also skips blanks and commas between elements.
#include <fmt/format.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <fstream>
#include <iterator>

#include "job/option_builders.h"

namespace sluice::detail {
namespace {

constexpr std::size_t kMaxPatternBytes = 1u << 20;  // a pattern is repeated over a block; 1 MiB is plenty

int hex_digit(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool starts_hex(std::string_view v, std::size_t i) {
  return i + 1 < v.size() && v[i] == '0' && (v[i + 1] == 'x' || v[i + 1] == 'X');
}

std::string file_contents(std::string_view name, std::string_view option, std::string_view value,
                          const SourcePos& where) {
  std::ifstream in{std::string(name), std::ios::binary};
  if (!in) {
    value_error(where, option, value, fmt::format("cannot read the pattern file '{}': {}", name, std::strerror(errno)));
  }
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.empty()) value_error(where, option, value, fmt::format("the pattern file '{}' is empty", name));
  return bytes;
}

}  // namespace

DataPattern decode_data_pattern(std::string_view value, const SourcePos& where, std::string_view option,
                                bool allow_offset) {
  DataPattern out;
  std::size_t i = 0;
  while (i < value.size()) {
    const char c = value[i];
    if (c == ' ' || c == '\t' || c == ',') {
      ++i;
    } else if (c == '"' || c == '\'') {
      const std::size_t end = value.find(c, i + 1);
      if (end == std::string_view::npos) {
        value_error(where, option, value, c == '"' ? "unterminated quoted string" : "unterminated 'file name'");
      }
      const std::string_view inside = value.substr(i + 1, end - i - 1);
      out.bytes += c == '"' ? std::string(inside) : file_contents(inside, option, value, where);
      i = end + 1;
    } else if (starts_hex(value, i)) {
      std::size_t end = i + 2;
      while (end < value.size() && hex_digit(value[end]) >= 0 && !starts_hex(value, end)) ++end;
      std::string digits(value.substr(i + 2, end - i - 2));
      if (digits.empty()) value_error(where, option, value, "0x needs hex digits");
      if (digits.size() % 2) digits.insert(digits.begin(), '0');
      for (std::size_t d = 0; d < digits.size(); d += 2) {
        out.bytes += static_cast<char>(hex_digit(digits[d]) * 16 + hex_digit(digits[d + 1]));
      }
      i = end;
    } else if (c == '%' && i + 1 < value.size() && value[i + 1] == 'o') {
      if (!allow_offset) {
        value_error(where, option, value, "%o (the block offset) is only for verify_pattern, as in fio");
      }
      out.offset_slots.push_back(static_cast<std::uint32_t>(out.bytes.size()));
      out.bytes.append(8, '\0');
      i += 2;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      std::size_t end = i + (c == '-' ? 1 : 0);
      const std::size_t digits_start = end;
      while (end < value.size() && value[end] >= '0' && value[end] <= '9' && !starts_hex(value, end)) ++end;
      if (end == digits_start) value_error(where, option, value, "'-' must be followed by a decimal number");
      long long number = 0;
      for (std::size_t d = digits_start; d < end && number <= INT_MAX + 1ll; ++d)
        number = number * 10 + (value[d] - '0');
      if (c == '-') number = -number;
      if (number > INT_MAX || number < INT_MIN) {
        value_error(where, option, value,
                    fmt::format("{}: a decimal number must be from -2147483648 to 2147483647 (use 0x for more bytes)",
                                value.substr(i, end - i)));
      }
      std::uint32_t bits = static_cast<std::uint32_t>(static_cast<std::int32_t>(number));
      if (bits == 0) out.bytes += '\0';
      for (; bits != 0; bits >>= 8) out.bytes += static_cast<char>(bits & 0xff);
      i = end;
    } else {
      value_error(
          where, option, value,
          "expected \"text\", 'file', 0x hex bytes, a decimal number" + std::string(allow_offset ? " or %o" : ""));
    }
    if (out.bytes.size() > kMaxPatternBytes) value_error(where, option, value, "the pattern is larger than 1 MiB");
  }
  if (out.bytes.empty()) value_error(where, option, value, "the pattern is empty");
  return out;
}

}  // namespace sluice::detail
