#pragma once
// Numbers read from a result document for the HTML report, tolerant of whatever the document holds: a
// report of a corrupt or foreign file shows 0 or "-", never undefined behaviour (found by fuzzing).
#include <cstdint>
#include <nlohmann/json.hpp>

namespace sluice::html {

// The direction sections of a fio job in a result document, in fio's order.
inline constexpr const char* kDirections[] = {"read", "write", "trim"};

// j[key] as a double when it is a number, else `fallback`.
inline double number(const nlohmann::json& j, const char* key, double fallback = 0) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : fallback;
}

// A count or a duration in ns as a whole number: negative, NaN or beyond 64 bits reads as 0.
inline std::uint64_t whole_number(double v) {
  return v >= 0 && v < 18446744073709551616.0 ? static_cast<std::uint64_t>(v) : 0;
}

}  // namespace sluice::html
