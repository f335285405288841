#pragma once
// Runs each scheduled action at its due time on one thread: the lab daemon's replies, sent when the model
// says the request completes. The clock is steady_clock (CLOCK_MONOTONIC), the daemon's clock.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <queue>
#include <thread>
#include <vector>

namespace sluice {

class ReplyScheduler {
 public:
  using Clock = std::chrono::steady_clock;

  // `spin`: how long before a reply's due time the thread stops sleeping and spins (a timed wait can wake late).
  explicit ReplyScheduler(std::chrono::microseconds spin = std::chrono::microseconds(300));
  // Runs every action still pending (at once), then stops the thread.
  ~ReplyScheduler();
  ReplyScheduler(const ReplyScheduler&) = delete;
  ReplyScheduler& operator=(const ReplyScheduler&) = delete;

  // Runs `action` at `due` (at once when due is past), after every action due earlier. Thread-safe.
  void schedule(Clock::time_point due, std::function<void()> action);

  // The clock as the engine reads it: nanoseconds since steady_clock's epoch.
  static std::chrono::nanoseconds now_ns() noexcept;

 private:
  struct Pending {
    Clock::time_point due;
    std::uint64_t order;
    std::function<void()> action;
    bool operator>(const Pending& other) const noexcept {
      return due != other.due ? due > other.due : order > other.order;
    }
  };
  void run();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::priority_queue<Pending, std::vector<Pending>, std::greater<>> pending_;
  std::uint64_t next_order_ = 0;
  bool stopping_ = false;
  std::chrono::microseconds spin_;
  std::thread thread_;
};

}  // namespace sluice
