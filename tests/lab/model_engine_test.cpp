// The engine on a fake clock: each rule of docs/lab.md's request semantics, one at a time.
#include "lab/model_engine.h"

#include <gtest/gtest.h>

#include <cmath>

#include "lab/model_parser.h"

namespace sluice {
namespace {

using namespace std::chrono_literals;
using std::chrono::nanoseconds;

ModelSpec engine_model(const std::string& text) { return parse_model(text, "test.model", "test"); }

ModelRequest engine_read(std::uint64_t offset, std::uint64_t bytes = 4096) { return {ModelOp::kRead, offset, bytes}; }
ModelRequest engine_write(std::uint64_t offset, std::uint64_t bytes = 16384) {
  return {ModelOp::kWrite, offset, bytes};
}
constexpr ModelRequest kEngineFlush{ModelOp::kFlush, 0, 0};

// A clock the test moves by hand.
struct FakeEngineClock {
  nanoseconds now{0};
  ModelEngine::Clock clock() {
    return [this] { return now; };
  }
};

TEST(ModelEngine, ARequestCompletesAtItsArrivalPlusItsServiceOnTheGivenClock) {
  FakeEngineClock clock;
  ModelEngine engine(engine_model("read_time = 1ms\n"), clock.clock());
  clock.now = 5ms;
  const ModelCompletion c = engine.admit(engine_read(0));
  EXPECT_EQ(c.arrival, 5ms);
  EXPECT_EQ(c.start, 5ms);
  EXPECT_EQ(c.done, 6ms);
  EXPECT_EQ(c.service, 1ms);
  // Admitted late (the path took 0.3 ms to deliver it), it is still due 1 ms after it arrived.
  clock.now = 10300us;
  EXPECT_EQ(engine.admit_at(engine_read(0), 10ms).done, 11ms);
}

TEST(ModelEngine, OneServerServesInArrivalOrder) {
  FakeEngineClock clock;
  ModelEngine engine(engine_model("read_time = 1ms\n"), clock.clock());
  EXPECT_EQ(engine.admit(engine_read(0)).done, 1ms);
  const ModelCompletion second = engine.admit(engine_read(0));
  EXPECT_EQ(second.start, 1ms);
  EXPECT_EQ(second.done, 2ms);
  EXPECT_EQ(engine.stats()[0].queued, 1ms);
  EXPECT_EQ(engine.stats()[0].count, 2u);
}

TEST(ModelEngine, ServersWorkInParallel) {
  FakeEngineClock clock;
  ModelEngine engine(engine_model("servers = 4\nread_time = 1ms\n"), clock.clock());
  for (int i = 0; i < 4; ++i) EXPECT_EQ(engine.admit(engine_read(0)).done, 1ms);
  EXPECT_EQ(engine.admit(engine_read(0)).done, 2ms);
}

TEST(ModelEngine, RoundTripAndPerByteCost) {
  FakeEngineClock clock;
  ModelEngine engine(engine_model("read_time = 1ms\ntransfer_rate = 4MiB/s\nnetwork_rtt = 0.5ms\n"), clock.clock());
  const ModelCompletion c = engine.admit(engine_read(0, 4096));  // 1 ms + 0.9765625 ms + 0.5 ms
  EXPECT_NEAR(static_cast<double>(c.done.count()), 2476562.5, 1);
}

TEST(ModelEngine, BandwidthCapSpacesLargeRequests) {
  FakeEngineClock clock;
  ModelEngine engine(engine_model("servers = 32\nread_time = 1ms\nbandwidth = 100MiB/s\n"), clock.clock());
  for (int i = 1; i <= 3; ++i) EXPECT_EQ(engine.admit(engine_read(0, 1 << 20)).done, i * 10ms);
}

constexpr const char* kSmallCache =
    "read_time = 1ms\nwrite_cache = write-back\ncache_size = 64k\ncache_write_time = 0.1ms\n"
    "destage_rate = 4MiB/s\nservers = 8\n";

TEST(ModelEngine, WriteBackAcknowledgesFromTheCacheUntilItIsFull) {
  // 16 KiB drain in 3.90625 ms at 4 MiB/s; four fit in 64 KiB, the fifth waits for room.
  FakeEngineClock clock;
  ModelEngine engine(engine_model(kSmallCache), clock.clock());
  for (int i = 0; i < 4; ++i) EXPECT_EQ(engine.admit(engine_write(0)).done, 100us);
  const ModelCompletion fifth = engine.admit(engine_write(0));
  EXPECT_EQ(fifth.start, 3906250ns);
  EXPECT_EQ(fifth.done, 4006250ns);
}

TEST(ModelEngine, VolatileFlushWaitsForWhatTheCacheStillHolds) {
  FakeEngineClock clock;
  ModelEngine engine(engine_model(std::string(kSmallCache) + "flush_time = 0.2ms\n"), clock.clock());
  clock.now = engine.admit(engine_write(0)).done;  // 0.1 ms; 16 KiB drained by 3.90625 ms
  EXPECT_EQ(engine.admit(kEngineFlush).done, 3906250ns + 200us);
  clock.now = 10ms;  // nothing left to destage
  EXPECT_EQ(engine.admit(kEngineFlush).done, 10200us);
}

TEST(ModelEngine, BatteryBackedFlushCostsOnlyItself) {
  FakeEngineClock clock;
  ModelEngine engine(engine_model(std::string(kSmallCache) + "flush_time = 0.2ms\nbattery = yes\n"), clock.clock());
  clock.now = engine.admit(engine_write(0)).done;
  EXPECT_EQ(engine.admit(kEngineFlush).done, 300us);
}

TEST(ModelEngine, WritesSlowDownAfterTheCliff) {
  FakeEngineClock clock;
  ModelEngine engine(engine_model("read_time = 1ms\ncliff_after = 32k\ncliff_write_time = 3ms\n"), clock.clock());
  EXPECT_EQ(engine.admit(engine_write(0)).service, 1ms);
  EXPECT_EQ(engine.admit(engine_write(0)).service, 1ms);
  EXPECT_EQ(engine.bytes_written(), 32768u);
  EXPECT_EQ(engine.admit(engine_write(0)).service, 3ms);
  EXPECT_EQ(engine.admit(engine_read(0)).service, 1ms);
}

constexpr const char* kDisk = "read_time = 0.1ms\nrpm = 6000\nseek_track = 1ms\nseek_full = 9ms\nsize = 1g\n";

TEST(ModelEngine, RotatingContiguousRequestsNeedNoPositioning) {
  FakeEngineClock clock;
  ModelEngine engine(engine_model(kDisk), clock.clock());
  EXPECT_EQ(engine.admit(engine_read(0)).service, 100us);
  EXPECT_EQ(engine.admit(engine_read(4096)).service, 100us);
}

TEST(ModelEngine, RotatingSeekGrowsWithTheSquareRootOfTheDistance) {
  // Quarter of the device: 1 + 8 * sqrt(1/4) = 5 ms of seek, plus up to a 10 ms turn.
  FakeEngineClock clock;
  ModelEngine engine(engine_model(kDisk), clock.clock());
  engine.admit(engine_read(0));
  const nanoseconds service = engine.admit(engine_read((std::uint64_t{1} << 28) + 4096)).service;
  EXPECT_GE(service, 5100us);
  EXPECT_LT(service, 15100us);
}

TEST(ModelEngine, TheSameSeedGivesTheSameTimes) {
  FakeEngineClock clock;
  ModelEngine a(engine_model(kDisk), clock.clock());
  ModelEngine b(engine_model(kDisk), clock.clock());
  for (std::uint64_t i = 1; i < 50; ++i) {
    const std::uint64_t offset = (i * 7919 % 1000) << 20;
    EXPECT_EQ(a.admit(engine_read(offset)).service, b.admit(engine_read(offset)).service);
  }
}

TEST(ModelEngine, JitterKeepsTheMeanService) {
  for (const char* kind : {"uniform", "exponential"}) {
    FakeEngineClock clock;
    ModelEngine engine(engine_model(std::string("read_time = 1ms\njitter_fraction = 20%\njitter = ") + kind),
                       clock.clock());
    constexpr int kCount = 100000;
    for (int i = 0; i < kCount; ++i) engine.admit(engine_read(0));
    const double mean_ms = static_cast<double>(engine.stats()[0].service.count()) / kCount / 1e6;
    EXPECT_NEAR(mean_ms, 1.0, 0.005) << kind;
  }
}

}  // namespace
}  // namespace sluice
