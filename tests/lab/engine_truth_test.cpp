// The engine against the truth: a closed loop simulated on the engine's own timeline must measure what
// lab/truth.h says, for the presets and the write cache rules. Two independent derivations of one model.
#include <gtest/gtest.h>

#include <queue>
#include <vector>

#include "lab/model_engine.h"
#include "lab/model_source.h"
#include "lab/truth.h"

namespace sluice {
namespace {

using std::chrono::nanoseconds;

struct SimulatedRate {
  double iops = 0;
  double mean_latency_s = 0;
};

// `depth` clients each keep one request outstanding: the next is issued when the previous completes. The
// first `warmup` completions are not counted. Offsets are 4 KiB aligned and uniform over the device when
// `random`, else each client continues where the device's last request ended.
SimulatedRate simulate_closed_loop(const ModelSpec& model, ModelOp op, std::uint64_t bs, bool random,
                                   std::uint32_t depth, int count, int warmup = 2000) {
  ModelEngine engine(model, [] { return nanoseconds(0); });
  Rng offsets(42);
  std::uint64_t next_sequential = 0;
  using Ready = std::pair<std::int64_t, std::uint32_t>;  // (ns, client)
  std::priority_queue<Ready, std::vector<Ready>, std::greater<>> ready;
  for (std::uint32_t c = 0; c < depth; ++c) ready.emplace(0, c);
  const std::uint64_t blocks = model.size_bytes / bs;
  double latency_sum = 0;
  std::int64_t first = 0;  // the arrivals of the counted requests: in a closed loop, arrivals are completions
  std::int64_t last = 0;
  for (int i = 0; i < count + warmup; ++i) {
    const auto [at, client] = ready.top();
    ready.pop();
    std::uint64_t offset = next_sequential;
    if (random) offset = offsets.below(blocks) * bs;
    next_sequential = (offset + bs) % (blocks * bs);
    const ModelCompletion c = engine.admit_at({op, offset, bs}, nanoseconds(at));
    if (i == warmup) first = at;
    if (i >= warmup) {
      latency_sum += static_cast<double>((c.done - c.arrival).count()) * 1e-9;
      last = at;
    }
    ready.emplace(c.done.count(), client);
  }
  return {(count - 1) / (static_cast<double>(last - first) * 1e-9), latency_sum / count};
}

const TruthRow& engine_truth_row(const Truth& t, const std::string& what, const std::string& rw, std::uint64_t bs,
                                 std::uint32_t depth, const std::string& phase) {
  for (const TruthRow& r : t.rows) {
    if (r.what == what && r.rw == rw && r.bs == bs && r.iodepth == depth && r.phase == phase) return r;
  }
  static const TruthRow kNone;
  ADD_FAILURE() << "no truth row " << what << " " << rw << " " << depth << " " << phase;
  return kNone;
}

void expect_matches_truth(const std::string& preset, const std::string& rw, std::uint64_t bs, std::uint32_t depth,
                          const std::string& phase, double tolerance) {
  const ModelSpec model = load_model(preset);
  const Truth all = compute_truth(model);
  const TruthRow& truth = engine_truth_row(all, "depth", rw, bs, depth, phase);
  const ModelOp op = rw.find("read") != std::string::npos ? ModelOp::kRead : ModelOp::kWrite;
  const SimulatedRate sim = simulate_closed_loop(model, op, bs, rw.starts_with("rand"), depth, 20000);
  EXPECT_NEAR(sim.iops, truth.iops, truth.iops * tolerance) << preset << " " << rw << " depth " << depth;
  EXPECT_NEAR(sim.mean_latency_s, truth.mean_latency.count(), truth.mean_latency.count() * tolerance)
      << preset << " " << rw << " depth " << depth;
}

TEST(EngineAgainstTruth, DeterministicPresetsMatchExactly) {
  for (const char* preset : {"ssd", "ramdisk", "iscsi-1g"}) {
    for (std::uint32_t depth : {1u, 32u}) {
      expect_matches_truth(preset, "randread", 4096, depth, "steady", 0.001);
      expect_matches_truth(preset, "read", 1 << 20, depth, "steady", 0.001);
    }
  }
}

TEST(EngineAgainstTruth, RotatingPresetsMatchWithinSamplingError) {
  // 20 000 random requests: the mean service's standard error is under 0.5%; the seek model's mean over
  // discrete 4 KiB offsets differs from the continuum's 8/15 by far less.
  for (const char* preset : {"sas15k", "sata7k", "raid-wt"}) {
    for (std::uint32_t depth : {1u, 32u}) expect_matches_truth(preset, "randread", 4096, depth, "steady", 0.02);
  }
}

TEST(EngineAgainstTruth, WriteBackBurstAndCliffPhases) {
  expect_matches_truth("raid-wb", "randwrite", 4096, 32, "burst", 0.001);
  expect_matches_truth("ssd-cliff", "randwrite", 4096, 32, "fresh", 0.001);
}

TEST(EngineAgainstTruth, WriteBackSteadyStateIsTheDestageRate) {
  // A cache of 1 MiB fills within the warm-up; then writes run at the destage rate (4 MiB/s = 1024 x 4 KiB).
  ModelSpec model = load_model("raid-wb");
  model.cache_size_bytes = 1 << 20;
  model.destage_bytes_per_s = 4.0 * 1048576;
  model.bandwidth_bytes_per_s = 0;
  const SimulatedRate sim = simulate_closed_loop(model, ModelOp::kWrite, 4096, true, 32, 20000);
  EXPECT_NEAR(sim.iops, 1024, 1024 * 0.001);
  const Truth all = compute_truth(model);
  const TruthRow& truth = engine_truth_row(all, "depth", "randwrite", 4096, 32, "steady");
  EXPECT_NEAR(truth.iops, 1024, 1e-6);
  EXPECT_NEAR(sim.mean_latency_s, truth.mean_latency.count(), truth.mean_latency.count() * 0.001);
}

// One thread: write 16 KiB, flush, repeat; the rate over `cycles` after as many cycles of warm-up.
double simulate_fsync_rate(const ModelSpec& model, int cycles) {
  ModelEngine engine(model, [] { return nanoseconds(0); });
  Rng offsets(7);
  nanoseconds t{0};
  nanoseconds start{0};
  for (int i = 0; i < 2 * cycles; ++i) {
    if (i == cycles) start = t;
    const ModelCompletion w = engine.admit_at({ModelOp::kWrite, offsets.below(1000) * 16384, 16384}, t);
    t = engine.admit_at({ModelOp::kFlush, 0, 0}, w.done).done;
  }
  return cycles / (static_cast<double>((t - start).count()) * 1e-9);
}

TEST(EngineAgainstTruth, FsyncedWritesMatchTheTruthForEveryCacheKind) {
  for (const char* preset : {"raid-wb", "ssd", "iscsi-1g"}) {
    const ModelSpec model = load_model(preset);
    const Truth all = compute_truth(model);
    const TruthRow& truth = engine_truth_row(all, "fsync", "randwrite", 16384, 1, "steady");
    EXPECT_NEAR(simulate_fsync_rate(model, 5000), truth.iops, truth.iops * 0.001) << preset;
  }
  for (bool battery : {false, true}) {
    ModelSpec slow = load_model("raid-wb");
    slow.destage_bytes_per_s = 8.0 * 1048576;
    slow.battery = battery;
    slow.cache_size_bytes = 1 << 20;  // a battery-backed cache fills within the warm-up: the steady state
    const Truth all = compute_truth(slow);
    const TruthRow& truth = engine_truth_row(all, "fsync", "randwrite", 16384, 1, "steady");
    EXPECT_NEAR(simulate_fsync_rate(slow, 5000), truth.iops, truth.iops * 0.002) << "battery " << battery;
  }
}

}  // namespace
}  // namespace sluice
