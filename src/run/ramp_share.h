#pragma once
// ramp_size under group_reporting (fio 3.42): the jobs of a group ramp until together they have done
// ramp_size bytes, then all start measuring. Each job publishes its own ramp bytes into a slot of its own
// (a cache line each, a relaxed store per loop turn, not per io); the job whose once-a-second check finds the
// sum reached ends the ramp for all of them.
//
// Threads: slots are taken with join() by the group's workers as they start; the rest is lock-free.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace sluice {

class RampShare {
 public:
  // `jobs`: the most workers that will join (the group's clones with ramp_size and group_reporting).
  explicit RampShare(std::size_t jobs) : slots_(std::make_unique<Slot[]>(jobs)), capacity_(jobs) {}

  // A slot for one worker's count; nullptr-safe callers use the returned index with publish().
  std::size_t join() noexcept { return next_.fetch_add(1, std::memory_order_relaxed) % capacity_; }
  // The worker's bytes completed during the ramp so far.
  void publish(std::size_t slot, std::uint64_t bytes) noexcept {
    slots_[slot].bytes.store(bytes, std::memory_order_relaxed);
  }
  std::uint64_t total() const noexcept {
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < capacity_; ++i) sum += slots_[i].bytes.load(std::memory_order_relaxed);
    return sum;
  }
  void end() noexcept { ended_.store(true, std::memory_order_relaxed); }
  bool ended() const noexcept { return ended_.load(std::memory_order_relaxed); }

 private:
  static constexpr std::size_t kCacheLine = 64;
  struct alignas(kCacheLine) Slot {
    std::atomic<std::uint64_t> bytes{0};
  };
  std::unique_ptr<Slot[]> slots_;
  std::size_t capacity_;
  std::atomic<std::size_t> next_{0};
  std::atomic<bool> ended_{false};
};

}  // namespace sluice
