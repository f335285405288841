// ResultSnapshot: the periodic reports' exchange between the reporting thread and a worker. A request is
// answered only by a result published after it, so a report never takes the result of an earlier moment;
// a worker that has ended answers every request with its last result.
#include "run/result_snapshot.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace sluice {
namespace {

using namespace std::chrono_literals;

JobResult result_with_ios(std::uint64_t ios) {
  JobResult r;
  r.dirs[0].ios = ios;
  return r;
}

TEST(ResultSnapshot, ARequestIsAnsweredOnlyByAResultPublishedAfterIt) {
  ResultSnapshot snapshot;
  EXPECT_FALSE(snapshot.requested());
  snapshot.publish(result_with_ios(4));  // published on its own, before any report asked
  const std::uint64_t asked = snapshot.request();
  EXPECT_TRUE(snapshot.requested());
  // Not answered yet: the wait runs out and the caller gets the older result (a worker blocked in an io).
  EXPECT_EQ(snapshot.answer(asked, 1ms)->dirs[0].ios, 4u);
  std::thread worker([&] {
    while (!snapshot.requested()) std::this_thread::yield();
    snapshot.publish(result_with_ios(8));
  });
  const std::optional<JobResult> answered = snapshot.answer(asked, 60s);
  worker.join();
  ASSERT_TRUE(answered.has_value());
  EXPECT_EQ(answered->dirs[0].ios, 8u) << "the result of the request's time, not the one before";
  EXPECT_FALSE(snapshot.requested());
}

TEST(ResultSnapshot, AWorkerThatEndedAnswersWithItsLastResult) {
  ResultSnapshot snapshot;
  EXPECT_FALSE(snapshot.answer(snapshot.request(), 1ms).has_value()) << "nothing published yet";
  snapshot.publish(result_with_ios(12));
  snapshot.close();
  const auto started = std::chrono::steady_clock::now();
  EXPECT_EQ(snapshot.answer(snapshot.request(), 60s)->dirs[0].ios, 12u);
  EXPECT_LT(std::chrono::steady_clock::now() - started, 30s) << "no wait for an answer that cannot come";
}

}  // namespace
}  // namespace sluice
