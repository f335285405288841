#pragma once
// ResultSnapshot: a running job's result so far (cumulative statistics, runtime up to the snapshot), for the
// periodic reports of --status-interval. The reporting thread asks (request()) and waits for the answer
// (answer()); the worker notices the request at its next loop turn, or at once while it sleeps (for a rate,
// a think time), and copies its result in under a mutex. So each report holds the ios completed up to its
// time: a worker that published on its own schedule was often asleep or descheduled then, and the report
// took the interval before. The worker publishes once more at its end and closes (no answer will follow).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>

#include "stats/result.h"

namespace sluice {

// How long before each report interval ends the reports are taken (a tenth of it, at most 50 ms): the report
// of an interval that ends with the run (the third of a 3 s run at T=1 s) still comes, as fio's do (its timer
// starts before the jobs: reports at about 0.9, 1.9 and 2.9 s).
constexpr std::uint64_t snapshot_lead_ns(std::uint64_t interval_ns) noexcept {
  return std::min<std::uint64_t>(interval_ns / 10, 50'000'000);
}

class ResultSnapshot {
 public:
  // Asks the worker for its result as of now (any thread; const: a reader's message, the result is not
  // changed by it); returns the request's number for answer().
  std::uint64_t request() const noexcept { return requested_.fetch_add(1, std::memory_order_acq_rel) + 1; }
  // True while a request is unanswered (the worker, once per loop turn: two relaxed loads, no lock).
  bool requested() const noexcept {
    return requested_.load(std::memory_order_relaxed) != answered_.load(std::memory_order_relaxed);
  }
  // Replaces the published result and answers every request made before the call (the worker thread).
  void publish(JobResult result) {
    const std::uint64_t asked = requested_.load(std::memory_order_acquire);
    {
      std::lock_guard lock(mutex_);
      result_ = std::move(result);
      answered_.store(asked, std::memory_order_relaxed);
    }
    answered_changed_.notify_all();
  }
  // The worker has ended (after its last publish): requests are answered by the last result from now on.
  void close() {
    {
      std::lock_guard lock(mutex_);
      closed_ = true;
    }
    answered_changed_.notify_all();
  }
  // Waits until request `number` is answered, the worker closed, or `timeout` passed (a worker blocked in a
  // long io answers after it), then returns the last published result; nullopt before the first (any thread).
  std::optional<JobResult> answer(std::uint64_t number, std::chrono::nanoseconds timeout) const {
    std::unique_lock lock(mutex_);
    answered_changed_.wait_for(lock, timeout,
                               [&] { return closed_ || answered_.load(std::memory_order_relaxed) >= number; });
    return result_;
  }
  // The last published result; nullopt before the first (any thread).
  std::optional<JobResult> latest() const {
    std::lock_guard lock(mutex_);
    return result_;
  }

 private:
  mutable std::atomic<std::uint64_t> requested_{0};
  std::atomic<std::uint64_t> answered_{0};  // the last request the published result answers
  mutable std::mutex mutex_;
  mutable std::condition_variable answered_changed_;
  bool closed_ = false;
  std::optional<JobResult> result_;
};

}  // namespace sluice
