// Number syntax shared by every option: sizes, durations, percentages, booleans, and the unit-naming output
// helpers. All parsers are pure and return std::nullopt on anything they do not fully understand.
#include "job/units.h"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

namespace sluice {
namespace {

std::string_view trim_spaces(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return text;
}

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Splits "12.5kib" into the numeric part "12.5" and the suffix "kib".
std::pair<std::string_view, std::string_view> split_number(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
  return {text.substr(0, i), trim_spaces(text.substr(i))};
}

std::optional<double> parse_plain_decimal(std::string_view digits) {
  if (digits.empty() || digits.front() == '.' || digits.back() == '.') return std::nullopt;
  double value = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return value;
}

// Multiplier for a size suffix. kb_base=1024 (fio's default): every prefix is a power of 1024.
// kb_base=1000: "k"/"kb" are powers of 1000 while "kib" stays 1024. Unlike fio's compatibility mode, sluice
// never makes an IEC unit ("KiB") mean a power of 1000: the unit says what it is.
std::optional<long double> size_multiplier(const std::string& suffix, std::uint32_t kb_base) {
  if (suffix.empty() || suffix == "b") return 1.0L;
  static constexpr std::string_view kPrefixes = "kmgtp";
  const auto pos = kPrefixes.find(suffix.front());
  if (pos == std::string_view::npos) return std::nullopt;
  const std::string_view rest = std::string_view(suffix).substr(1);
  long double base = 0;
  if (rest.empty() || rest == "b") {
    base = kb_base == 1000 ? 1000.0L : 1024.0L;
  } else if (rest == "ib") {
    base = 1024.0L;
  } else {
    return std::nullopt;
  }
  return std::pow(base, static_cast<long double>(pos + 1));
}

std::optional<std::uint64_t> parse_hex(std::string_view text) {
  if (text.size() < 3) return std::nullopt;
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data() + 2, text.data() + text.size(), value, 16);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::string format_scaled(double value, const char* unit) {
  char buffer[64];
  if (value == std::floor(value)) {
    std::snprintf(buffer, sizeof buffer, "%.0f %s", value, unit);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.2f %s", value, unit);
  }
  return buffer;
}

}  // namespace

std::optional<std::uint64_t> parse_size(std::string_view text, std::uint32_t kb_base) {
  text = trim_spaces(text);
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) return parse_hex(text);
  const auto [digits, suffix] = split_number(text);
  const auto number = parse_plain_decimal(digits);
  if (!number) return std::nullopt;
  const auto multiplier = size_multiplier(lower(suffix), kb_base);
  if (!multiplier) return std::nullopt;
  if (suffix.empty()) {
    // Integers without a suffix are parsed exactly (doubles lose precision above 2^53); a fraction of a
    // byte is not a size.
    std::uint64_t exact = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), exact);
    if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
    return exact;
  }
  // Fractions of larger units ("1.5m") round down to whole bytes; "1.5b" is not a size.
  if (*multiplier == 1.0L && *number != std::floor(*number)) return std::nullopt;
  const long double bytes = static_cast<long double>(*number) * *multiplier;
  if (bytes >= 18446744073709551615.0L) return std::nullopt;
  return static_cast<std::uint64_t>(bytes);
}

std::optional<double> parse_percent(std::string_view text) {
  text = trim_spaces(text);
  if (text.empty() || text.back() != '%') return std::nullopt;
  const auto value = parse_plain_decimal(trim_spaces(text.substr(0, text.size() - 1)));
  if (!value || *value <= 0.0 || *value > 100.0) return std::nullopt;
  return value;
}

std::optional<std::chrono::nanoseconds> parse_duration(std::string_view text, std::chrono::nanoseconds bare_unit) {
  text = trim_spaces(text);
  const auto [digits, suffix] = split_number(text);
  const auto number = parse_plain_decimal(digits);
  if (!number) return std::nullopt;
  struct Unit {
    std::string_view name;
    std::int64_t ns;
  };
  static constexpr std::array<Unit, 13> kUnits = {{{"ns", 1},
                                                   {"us", 1000},
                                                   {"usec", 1000},
                                                   {"ms", 1000000},
                                                   {"msec", 1000000},
                                                   {"s", 1000000000},
                                                   {"sec", 1000000000},
                                                   {"m", 60000000000},
                                                   {"min", 60000000000},
                                                   {"h", 3600000000000},
                                                   {"hour", 3600000000000},
                                                   {"d", 86400000000000},
                                                   {"day", 86400000000000}}};
  long double unit_ns = static_cast<long double>(bare_unit.count());
  if (!suffix.empty()) {
    const std::string name = lower(suffix);
    bool found = false;
    for (const Unit& unit : kUnits) {
      if (unit.name == name) {
        unit_ns = static_cast<long double>(unit.ns);
        found = true;
      }
    }
    if (!found) return std::nullopt;
  }
  const long double ns = static_cast<long double>(*number) * unit_ns;
  if (ns >= static_cast<long double>(std::numeric_limits<std::int64_t>::max())) return std::nullopt;
  return std::chrono::nanoseconds(static_cast<std::int64_t>(std::llround(ns)));
}

std::optional<std::uint64_t> parse_unsigned(std::string_view text) {
  text = trim_spaces(text);
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) return parse_hex(text);
  if (text.empty()) return std::nullopt;
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<double> parse_double(std::string_view text) {
  text = trim_spaces(text);
  if (text.empty()) return std::nullopt;
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

std::optional<bool> parse_bool(std::string_view text) {
  const std::string value = lower(trim_spaces(text));
  if (value.empty() || value == "1" || value == "true" || value == "yes" || value == "on") return true;
  if (value == "0" || value == "false" || value == "no" || value == "off") return false;
  return std::nullopt;
}

std::string format_bytes(double bytes) {
  static constexpr std::array<const char*, 6> kUnits = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  std::size_t unit = 0;
  while (std::fabs(bytes) >= 1024.0 && unit + 1 < kUnits.size()) {
    bytes /= 1024.0;
    ++unit;
  }
  return format_scaled(bytes, kUnits[unit]);
}

std::string format_bandwidth(double bytes_per_second) {
  static constexpr std::array<const char*, 6> kBinary = {"B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s", "PiB/s"};
  static constexpr std::array<const char*, 6> kDecimal = {"B/s", "kB/s", "MB/s", "GB/s", "TB/s", "PB/s"};
  double binary = bytes_per_second;
  std::size_t b = 0;
  while (std::fabs(binary) >= 1024.0 && b + 1 < kBinary.size()) {
    binary /= 1024.0;
    ++b;
  }
  double decimal = bytes_per_second;
  std::size_t d = 0;
  while (std::fabs(decimal) >= 1000.0 && d + 1 < kDecimal.size()) {
    decimal /= 1000.0;
    ++d;
  }
  char buffer[96];
  std::snprintf(buffer, sizeof buffer, "%.1f %s (%.1f %s)", binary, kBinary[b], decimal, kDecimal[d]);
  return buffer;
}

std::string format_duration_ns(double ns) {
  if (std::fabs(ns) < 1e3) return format_scaled(ns, "ns");
  if (std::fabs(ns) < 1e6) return format_scaled(ns / 1e3, "us");
  if (std::fabs(ns) < 1e9) return format_scaled(ns / 1e6, "ms");
  return format_scaled(ns / 1e9, "s");
}

}  // namespace sluice
