#pragma once
// `sysbench fileio run` on sluice's engines: --threads workers share one SysbenchRequests (the generator
// and counters), each with its own engine (sync: psync, async: libaio with --file-async-backlog in flight,
// mmap: mmap). An event is one request, timed around its I/O (with --file-fsync-all the write's fsync is
// inside the event); in async mode, as in sysbench, the event's latency is the submit call and the
// operation counts when its completion is reaped. Workers check --time before each event; when done each
// writing thread fsyncs every file (--file-fsync-end), before the run's clock stops.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/engine_traits.h"
#include "stats/latency_histogram.h"
#include "suites/sysbench_options.h"
#include "suites/sysbench_requests.h"

namespace sluice {

struct SysbenchThreadResult {
  std::uint64_t events = 0;
  std::uint64_t busy_ns = 0;  // sum of the thread's event latencies (sysbench's execution time)
};

// One --report-interval line: the counts and latencies of the events completed in it.
struct SysbenchInterval {
  double end_s = 0;    // since the start
  double seconds = 0;  // its length
  SysbenchCounts counts;
  LatencyHistogram histogram;
};

struct SysbenchRunResult {
  std::uint64_t seed = 0;
  EngineKind engine = EngineKind::kPsync;
  double total_time_s = 0;
  SysbenchCounts counts;
  LatencyHistogram histogram;
  std::uint64_t latency_min_ns = 0;
  std::uint64_t latency_max_ns = 0;
  std::uint64_t latency_sum_ns = 0;
  std::vector<SysbenchThreadResult> threads;
  std::vector<SysbenchInterval> intervals;
  bool interrupted = false;  // SIGINT/SIGTERM: what was measured until then
};

// The engine of each --file-io-mode.
EngineKind sysbench_engine_for(SysbenchIoMode mode) noexcept;

// Runs the test on the open files `fds` (sysbench_open_files) with `engine` (sysbench_engine_for, or null
// for tests). `on_interval` is called from the calling thread after each --report-interval. Throws IoError
// naming the file and offset when an I/O fails.
SysbenchRunResult run_sysbench(const SysbenchOptions& options, const std::vector<int>& fds, EngineKind engine,
                               std::uint64_t seed, const std::function<void(const SysbenchInterval&)>& on_interval);

}  // namespace sluice
