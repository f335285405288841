#pragma once
// Parsing of fio's number syntax: sizes ("4k", "1m", "2GiB", "10%"), durations ("10", "500ms", "2m", "1h"),
// percentages and plain integers. kb_base follows fio (k = 1024 unless kb_base=1000), except that sluice never
// inverts the IEC units: "KiB" is always 1024 (fio's kb_base=1024 makes "KiB" mean 1000; see docs).
// Failures return std::nullopt; callers build the message with the option name (see option_table.h).
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sluice {

// "4k" -> 4096. Accepts integers with optional suffix b, k, m, g, t, p (any case), kb/kib/mb/mib/...,
// and hexadecimal "0x..". Does not accept percentages.
std::optional<std::uint64_t> parse_size(std::string_view text, std::uint32_t kb_base = 1024);

// "10%" -> 10.0 (0 < p <= 100); nullopt when not a percentage.
std::optional<double> parse_percent(std::string_view text);

// Durations. A bare number is in `bare_unit` (fio: seconds for runtime, microseconds for thinktime).
// Suffixes: ns, us, ms, s, m, h, d.
std::optional<std::chrono::nanoseconds> parse_duration(std::string_view text, std::chrono::nanoseconds bare_unit);

std::optional<std::uint64_t> parse_unsigned(std::string_view text);
std::optional<double> parse_double(std::string_view text);
// "1", "0", "true", "false", "yes", "no", "on", "off" (and an empty value = true, for flags).
std::optional<bool> parse_bool(std::string_view text);

// Output helpers, always naming units: "4 KiB", "1.5 MiB", "12.3 MiB/s", "250 us".
std::string format_bytes(double bytes);
std::string format_bandwidth(double bytes_per_second);  // "123.4 MiB/s (129.4 MB/s)"
std::string format_duration_ns(double ns);              // picks ns / us / ms / s

}  // namespace sluice
