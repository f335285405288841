#pragma once
// steadystate under group_reporting (fio's steadystate_check): the group is judged as one job. Each job
// publishes its counts so far (bytes, ios, the sum and count of its completion latencies) into a slot of its
// own (a cache line each, relaxed stores once per loop turn, not per io); each job's SteadyStateMonitor samples
// the sum of the slots, so iops and bw are the group's summed rates and a latency sample is the group's mean,
// weighted by ios (fio adds the jobs' clat sums and sample counts before dividing). The first job whose window
// meets the criterion records its "steadystate" block; every job of the group then ends and reports it, as fio
// marks the group attained and terminates each of its jobs.
//
// Threads: slots are taken with join() as the group's workers start; publish/total/attained are lock-free;
// attain() and block() take a mutex (once per job, at the end).
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>

#include "run/steady_state_monitor.h"  // Totals, and nlohmann::json for the block

namespace sluice {

class SteadyShare {
 public:
  // `jobs`: the most workers that will join (the group's clones with steadystate and group_reporting).
  explicit SteadyShare(std::size_t jobs) : slots_(std::make_unique<Slot[]>(jobs)), capacity_(jobs) {}

  // A slot for one worker's counts.
  std::size_t join() noexcept { return next_.fetch_add(1, std::memory_order_relaxed) % capacity_; }
  // The worker's measured counts so far (they only grow, or start over with its statistics).
  void publish(std::size_t slot, const SteadyStateMonitor::Totals& totals) noexcept {
    Slot& s = slots_[slot];
    s.bytes.store(totals.bytes, std::memory_order_relaxed);
    s.ios.store(totals.ios, std::memory_order_relaxed);
    s.clat_sum_ns.store(static_cast<std::uint64_t>(std::llround(totals.clat_sum_ns)), std::memory_order_relaxed);
    s.clat_samples.store(totals.clat_samples, std::memory_order_relaxed);
  }
  // The group's counts: every slot's last published values added.
  SteadyStateMonitor::Totals total() const noexcept {
    SteadyStateMonitor::Totals sum;
    for (std::size_t i = 0; i < capacity_; ++i) {
      const Slot& s = slots_[i];
      sum.bytes += s.bytes.load(std::memory_order_relaxed);
      sum.ios += s.ios.load(std::memory_order_relaxed);
      sum.clat_sum_ns += static_cast<double>(s.clat_sum_ns.load(std::memory_order_relaxed));
      sum.clat_samples += s.clat_samples.load(std::memory_order_relaxed);
    }
    return sum;
  }
  // The group reached steady state; `block` is the finding job's "steadystate" JSON (the first call wins).
  void attain(const nlohmann::json& block) {
    std::lock_guard lock(mutex_);
    if (attained_.load(std::memory_order_relaxed)) return;
    block_ = block;
    attained_.store(true, std::memory_order_release);
  }
  bool attained() const noexcept { return attained_.load(std::memory_order_acquire); }
  // The block attain() recorded (null before).
  nlohmann::json block() const {
    std::lock_guard lock(mutex_);
    return block_;
  }

 private:
  static constexpr std::size_t kCacheLine = 64;
  struct alignas(kCacheLine) Slot {
    std::atomic<std::uint64_t> bytes{0};
    std::atomic<std::uint64_t> ios{0};
    std::atomic<std::uint64_t> clat_sum_ns{0};
    std::atomic<std::uint64_t> clat_samples{0};
  };
  std::unique_ptr<Slot[]> slots_;
  std::size_t capacity_;
  std::atomic<std::size_t> next_{0};
  std::atomic<bool> attained_{false};
  mutable std::mutex mutex_;
  nlohmann::json block_;
};

}  // namespace sluice
