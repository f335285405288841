#include "lab/reply_scheduler.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <vector>

namespace sluice {
namespace {

using namespace std::chrono_literals;

TEST(ReplyScheduler, RunsEachActionNoEarlierThanItsDueTimeInDueOrder) {
  std::mutex mutex;
  std::vector<int> order;
  std::vector<ReplyScheduler::Clock::duration> early;
  {
    ReplyScheduler scheduler;
    const auto start = ReplyScheduler::Clock::now();
    for (int i : {3, 1, 2}) {
      const auto due = start + i * 5ms;
      scheduler.schedule(due, [&, i, due] {
        std::lock_guard lock(mutex);
        order.push_back(i);
        early.push_back(due - ReplyScheduler::Clock::now());
      });
    }
    std::this_thread::sleep_for(40ms);
  }
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3}));
  for (const auto& e : early) EXPECT_LE(e.count(), 0);
}

TEST(ReplyScheduler, PendingActionsRunWhenItStops) {
  std::atomic<int> ran{0};
  {
    ReplyScheduler scheduler;
    scheduler.schedule(ReplyScheduler::Clock::now() + 1h, [&] { ++ran; });
  }
  EXPECT_EQ(ran.load(), 1);
}

TEST(ReplyScheduler, ThePastIsDueAtOnce) {
  std::atomic<int> ran{0};
  ReplyScheduler scheduler;
  scheduler.schedule(ReplyScheduler::Clock::now() - 1s, [&] { ++ran; });
  for (int i = 0; i < 1000 && ran.load() == 0; ++i) std::this_thread::sleep_for(1ms);
  EXPECT_EQ(ran.load(), 1);
}

}  // namespace
}  // namespace sluice
