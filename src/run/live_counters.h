#pragma once
// LiveCounters: what a running worker publishes for the status line. Written by the worker only (relaxed
// stores, no read-modify-write), read by the status thread; values may be a moment stale, never torn. The
// snapshot (periodic reports) has its own lock.
#include <atomic>
#include <cstdint>

#include "common/direction.h"
#include "run/result_snapshot.h"

namespace sluice {

struct LiveCounters {
  PerDirection<std::atomic<std::uint64_t>> ios{};
  PerDirection<std::atomic<std::uint64_t>> bytes{};
  std::atomic<bool> measuring{false};  // past ramp_time
  std::atomic<bool> finished{false};
  ResultSnapshot snapshot;  // the result so far, when the worker was given a snapshot interval

  void add(Direction d, std::uint64_t n_bytes) noexcept {
    auto& i = ios[index_of(d)];
    auto& b = bytes[index_of(d)];
    i.store(i.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    b.store(b.load(std::memory_order_relaxed) + n_bytes, std::memory_order_relaxed);
  }
};

}  // namespace sluice
