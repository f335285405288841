#include "report/report_format.h"

#include <fmt/format.h>

#include <array>
#include <cmath>

namespace sluice::report {
namespace {

constexpr std::array<std::string_view, 7> kBinaryBytes = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
constexpr std::array<std::string_view, 7> kDecimalBytes = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
constexpr std::array<std::string_view, 7> kBinaryBits = {"bit", "Kibit", "Mibit", "Gibit", "Tibit", "Pibit", "Eibit"};
constexpr std::array<std::string_view, 7> kDecimalBits = {"bit", "kbit", "Mbit", "Gbit", "Tbit", "Pbit", "Ebit"};
constexpr std::array<std::string_view, 7> kPlain = {"", "k", "M", "G", "T", "P", "E"};

int integer_digits(double v) {
  int digits = 1;
  while (v >= 10.0) {
    v /= 10.0;
    ++digits;
  }
  return digits;
}

}  // namespace

std::string compact_number(double value, int width, int base, NumUnit unit) {
  if (!std::isfinite(value) || value < 0) value = 0;
  if (unit == NumUnit::kBits) value *= 8;
  const auto& names = unit == NumUnit::kBytes  ? (base == 1000 ? kDecimalBytes : kBinaryBytes)
                      : unit == NumUnit::kBits ? (base == 1000 ? kDecimalBits : kBinaryBits)
                                               : kPlain;
  const double limit = std::pow(10.0, width);
  std::size_t scale = 0;
  while (value >= limit && scale + 1 < names.size()) {
    value /= base;
    ++scale;
  }
  if (scale == 0) return fmt::format("{}{}", static_cast<std::uint64_t>(value), names[0]);
  // Round first, then count digits, so 99.96 becomes "100" and not "100.0".
  int decimals = width - integer_digits(value) - 1;
  if (decimals > 0) {
    const double factor = std::pow(10.0, decimals);
    const double rounded = std::round(value * factor) / factor;
    decimals = width - integer_digits(rounded) - 1;
  }
  if (decimals <= 0) return fmt::format("{}{}", static_cast<std::uint64_t>(std::llround(value)), names[scale]);
  return fmt::format("{:.{}f}{}", value, decimals, names[scale]);
}

LatencyUnit stat_line_unit(std::uint64_t min_ns, std::uint64_t max_ns, double stdev_ns) {
  if (min_ns > 2'000'000 && max_ns > 99'999'999 && stdev_ns > 1'000'000.0) return {"msec", 1'000'000};
  if (min_ns > 2'000 && max_ns > 99'999 && stdev_ns > 1'000.0) return {"usec", 1'000};
  return {"nsec", 1};
}

LatencyUnit percentile_table_unit(std::uint64_t min_ns, std::uint64_t max_ns) {
  if (min_ns > 2'000'000 && max_ns > 99'999'999) return {"msec", 1'000'000};
  if (min_ns > 2'000 && max_ns > 99'999) return {"usec", 1'000};
  return {"nsec", 1};
}

}  // namespace sluice::report
