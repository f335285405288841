#pragma once
// The one clock sluice measures with: CLOCK_MONOTONIC through the vDSO (no syscall), in nanoseconds.
// The name is reported in results as the clock source.
#include <cstdint>
#include <ctime>

namespace sluice {

inline constexpr const char* kClockSource = "clock_gettime(CLOCK_MONOTONIC)";

// Nanoseconds since an arbitrary fixed point; never goes backwards. Safe from any thread.
inline std::uint64_t monotonic_ns() noexcept {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}

// Wall-clock milliseconds since the epoch (for "timestamp_ms" in reports only, never for measuring).
inline std::uint64_t wall_clock_ms() noexcept {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000ull + static_cast<std::uint64_t>(ts.tv_nsec) / 1'000'000ull;
}

}  // namespace sluice
