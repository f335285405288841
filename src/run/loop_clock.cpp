#include "run/loop_clock.h"

#include <algorithm>
#include <ctime>

namespace sluice {

void LoopClock::nap(std::uint64_t ns) noexcept {
  constexpr std::uint64_t kSlice = 100'000'000;  // wake at least every 100 ms to notice a stop request
  const std::uint64_t wait = std::min(ns, kSlice);
  timespec ts{static_cast<time_t>(wait / 1'000'000'000ull), static_cast<long>(wait % 1'000'000'000ull)};
  nanosleep(&ts, nullptr);
}

}  // namespace sluice
