#include "common/clock.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <string>

namespace sluice {
namespace clock_detail {
TscScale g_tsc;
}  // namespace clock_detail

namespace {

constexpr const char* kTscName = "rdtsc (invariant TSC, calibrated against clock_gettime(CLOCK_MONOTONIC))";
constexpr const char* kGettimeName = "clock_gettime(CLOCK_MONOTONIC)";

void calibrate() noexcept {
#if defined(__x86_64__)
  const char* choice = std::getenv("SLUICE_CLOCK");
  if (choice && std::strcmp(choice, "gettime") == 0) return;
  if (!cpu_has_invariant_tsc()) return;
  // Two readings of both clocks 20 ms apart; each pair is taken close together (the tighter of a few tries)
  // so the scale's error is about 100 ns / 20 ms = 5 ppm.
  auto pair = [](std::uint64_t& tsc, std::uint64_t& ns) {
    std::uint64_t best = ~0ull;
    for (int i = 0; i < 5; ++i) {
      const std::uint64_t t0 = __rdtsc();
      const std::uint64_t n = system_monotonic_ns();
      const std::uint64_t t1 = __rdtsc();
      if (t1 - t0 < best) {
        best = t1 - t0;
        tsc = t0 + (t1 - t0) / 2;
        ns = n;
      }
    }
  };
  std::uint64_t tsc0 = 0, ns0 = 0, tsc1 = 0, ns1 = 0;
  pair(tsc0, ns0);
  timespec pause{0, 20'000'000};
  nanosleep(&pause, nullptr);
  pair(tsc1, ns1);
  if (tsc1 <= tsc0 || ns1 <= ns0) return;
  clock_detail::TscScale scale;
  scale.mult = static_cast<std::uint64_t>((static_cast<unsigned __int128>(ns1 - ns0) << 32) / (tsc1 - tsc0));
  scale.base_tsc = tsc1;
  scale.base_ns = ns1;
  scale.enabled = scale.mult > 0;
  clock_detail::g_tsc = scale;
#endif
}

std::once_flag g_once;

}  // namespace

bool cpu_has_invariant_tsc() {
#if defined(__x86_64__)
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("flags", 0) == 0) {
      return line.find(" constant_tsc") != std::string::npos && line.find(" nonstop_tsc") != std::string::npos;
    }
  }
#endif
  return false;
}

void init_clock() noexcept { std::call_once(g_once, calibrate); }

const char* clock_source_name() noexcept { return clock_detail::g_tsc.enabled ? kTscName : kGettimeName; }

bool tsc_clock_in_use() noexcept { return clock_detail::g_tsc.enabled; }

void use_system_clock() noexcept {
  init_clock();  // a later init_clock() must not turn the TSC back on
  clock_detail::g_tsc.enabled = false;
}

}  // namespace sluice
