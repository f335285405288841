#pragma once
// LoopClock: the time an IoLoop reads and sleeps by. By default it is the process clock (common/clock.h: an
// inlined TSC read, nanosleep); a caller may hand it a ClockSource instead, so tests drive the loop on a
// fake time that advances only when their fake engine or a sleep says so (deterministic, no waiting).
// The default path costs one predictable branch per read: no virtual call, no syscall.
#include <cstdint>

#include "common/clock.h"

namespace sluice {

// A replacement time source (tests). Owned by the caller; outlives the loop. One thread.
class ClockSource {
 public:
  virtual ~ClockSource() = default;
  // Nanoseconds on a monotonic scale.
  virtual std::uint64_t now_ns() noexcept = 0;
  // Returns when now_ns() >= deadline_ns (a fake jumps there).
  virtual void sleep_until(std::uint64_t deadline_ns) noexcept = 0;
};

class LoopClock {
 public:
  LoopClock() = default;  // the process clock
  explicit LoopClock(ClockSource& source) noexcept : source_(&source) {}

  // Always inlined: the per-io path reads the clock twice, and in IoLoop's unity batch GCC's unit growth
  // limit otherwise left this call out of line (callgrind: 34 instructions per io).
  [[gnu::always_inline]] std::uint64_t now() const noexcept {
    return source_ == nullptr ? monotonic_ns() : source_->now_ns();
  }
  // Busy-waits until deadline_ns (thinktime_spin); a replacement source jumps there.
  void spin_until(std::uint64_t deadline_ns) const noexcept {
    if (source_ != nullptr) {
      source_->sleep_until(deadline_ns);
      return;
    }
    while (monotonic_ns() < deadline_ns) {
    }
  }
  // Sleeps until deadline_ns or until `interrupted()` turns true (checked at least every 100 ms).
  template <typename Interrupted>
  void sleep_until(std::uint64_t deadline_ns, Interrupted interrupted) const noexcept {
    if (source_ != nullptr) {
      if (!interrupted()) source_->sleep_until(deadline_ns);
      return;
    }
    for (std::uint64_t t = monotonic_ns(); t < deadline_ns && !interrupted(); t = monotonic_ns()) {
      nap(deadline_ns - t);
    }
  }

 private:
  static void nap(std::uint64_t ns) noexcept;  // nanosleep of at most 100 ms

  ClockSource* source_ = nullptr;
};

}  // namespace sluice
