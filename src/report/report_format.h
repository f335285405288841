#pragma once
// Number formatting shared by the text reporters: fio's compact "3 significant digits and a unit" style,
// and the choice of nsec / usec / msec for latency lines and percentile tables.
#include <cstdint>
#include <string>
#include <string_view>

namespace sluice::report {

// kBits: a byte count shown in bits (fio's unit_base=1): the value is multiplied by 8, the unit is "bit".
enum class NumUnit { kNone, kBytes, kBits };

// A value in at most `width` characters (digits and the decimal point) with a scaled unit, as fio prints
// "IOPS=10.9k", "BW=42.7MiB/s", "io=85.5MiB", "BW=342Mibit/s". base is 1024 (KiB, MiB, ...) or 1000 (kB, MB,
// ...; for kNone: k, M, G). The value is divided by base while it has more than `width` integer digits; a
// divided value keeps as many decimals as fit.
std::string compact_number(double value, int width, int base, NumUnit unit);

// A latency unit and its divisor from nanoseconds.
struct LatencyUnit {
  std::string_view name;  // "nsec", "usec", "msec"
  std::uint64_t divisor;  // 1, 1000, 1000000
};

// For "clat (usec): min=..., max=..., avg=..., stdev=...": the largest unit that keeps small values
// readable (fio: usec once min > 2 us, max > 100 us and stdev > 1 us; msec alike one step up).
LatencyUnit stat_line_unit(std::uint64_t min_ns, std::uint64_t max_ns, double stdev_ns);

// For a percentile table, from its smallest and largest entry.
LatencyUnit percentile_table_unit(std::uint64_t min_ns, std::uint64_t max_ns);

}  // namespace sluice::report
