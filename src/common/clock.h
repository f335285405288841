#pragma once
// The one clock sluice measures with, in nanoseconds on a monotonic scale.
//
// Where the CPU has an invariant TSC (constant_tsc and nonstop_tsc in /proc/cpuinfo, x86-64), the clock reads
// the TSC and scales it with a factor calibrated against CLOCK_MONOTONIC at start (init_clock()): a read costs
// a fraction of a vDSO clock_gettime(), which matters at millions of ios per second. Elsewhere, or with
// SLUICE_CLOCK=gettime in the environment, it is clock_gettime(CLOCK_MONOTONIC). clock_source_name() says
// which, and results record it.
#include <cstdint>
#include <ctime>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace sluice {

namespace clock_detail {
struct TscScale {
  bool enabled = false;
  std::uint64_t base_tsc = 0;
  std::uint64_t base_ns = 0;
  std::uint64_t mult = 0;  // ns per tick, as a 32.32 fixed-point number
};
extern TscScale g_tsc;
}  // namespace clock_detail

// clock_gettime(CLOCK_MONOTONIC) through the vDSO.
inline std::uint64_t system_monotonic_ns() noexcept {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}

// True when /proc/cpuinfo lists constant_tsc and nonstop_tsc (x86-64): the TSC can measure time.
bool cpu_has_invariant_tsc();

// Calibrates the TSC clock (about 20 ms, once; later calls return at once). Call before starting threads.
void init_clock() noexcept;

// "rdtsc (invariant TSC, calibrated against clock_gettime(CLOCK_MONOTONIC))" or "clock_gettime(CLOCK_MONOTONIC)".
const char* clock_source_name() noexcept;

// True while monotonic_ns() reads the TSC (after init_clock(), on a CPU with an invariant one).
bool tsc_clock_in_use() noexcept;

// From now on monotonic_ns() reads clock_gettime(CLOCK_MONOTONIC), for the rest of the process (fio's
// clocksource=clock_gettime). Call after init_clock() while no other thread reads the clock; the TSC scale
// is calibrated against that clock, so earlier readings stay comparable.
void use_system_clock() noexcept;

// Nanoseconds since an arbitrary fixed point; never goes backwards. Safe from any thread.
inline std::uint64_t monotonic_ns() noexcept {
#if defined(__x86_64__)
  const clock_detail::TscScale& s = clock_detail::g_tsc;
  if (s.enabled) {
    const std::uint64_t tsc = __rdtsc();
    const std::uint64_t ticks = tsc > s.base_tsc ? tsc - s.base_tsc : 0;
    return s.base_ns + static_cast<std::uint64_t>((static_cast<unsigned __int128>(ticks) * s.mult) >> 32);
  }
#endif
  return system_monotonic_ns();
}

// Seconds from `start_ns` (a monotonic_ns() reading) to now.
inline double seconds_since(std::uint64_t start_ns) noexcept {
  return static_cast<double>(monotonic_ns() - start_ns) / 1e9;
}

// Wall-clock milliseconds since the epoch (for "timestamp_ms" in reports only, never for measuring).
inline std::uint64_t wall_clock_ms() noexcept {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000ull + static_cast<std::uint64_t>(ts.tv_nsec) / 1'000'000ull;
}

}  // namespace sluice
