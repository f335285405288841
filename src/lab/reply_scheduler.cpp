#include "lab/reply_scheduler.h"

#include <sys/prctl.h>

namespace sluice {

ReplyScheduler::ReplyScheduler(std::chrono::microseconds spin) : spin_(spin), thread_([this] { run(); }) {}

ReplyScheduler::~ReplyScheduler() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

std::chrono::nanoseconds ReplyScheduler::now_ns() noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch());
}

void ReplyScheduler::schedule(Clock::time_point due, std::function<void()> action) {
  bool first = false;
  {
    std::lock_guard lock(mutex_);
    first = pending_.empty() || due < pending_.top().due;
    pending_.push({due, next_order_++, std::move(action)});
  }
  if (first) wake_.notify_one();
}

void ReplyScheduler::run() {
  ::prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);  // wake within microseconds of a reply's due time, not 50 us
  std::unique_lock lock(mutex_);
  for (;;) {
    if (pending_.empty()) {
      if (stopping_) return;
      wake_.wait(lock);
      continue;
    }
    const Clock::time_point due = pending_.top().due;
    const Clock::time_point now = Clock::now();
    if (!stopping_ && now < due - spin_) {
      wake_.wait_until(lock, due - spin_);
      continue;
    }
    if (!stopping_ && now < due) {
      // A timed wait wakes up to ~0.2 ms late on a virtual machine (less in real time); the last stretch spins.
      lock.unlock();
      while (Clock::now() < due) {
      }
      lock.lock();
      continue;
    }
    std::function<void()> action = std::move(const_cast<Pending&>(pending_.top()).action);
    pending_.pop();
    lock.unlock();
    action();
    lock.lock();
  }
}

}  // namespace sluice
