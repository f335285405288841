#pragma once
// The request generator and the counters every sysbench fileio thread shares, under one mutex as in
// sysbench (file_get_request and the completed-operation counters):
//   - sequential modes: one cursor for all threads, requests of block x merged bytes cut at the end of a
//     file, moving to the next file and wrapping from the last file to file 0;
//   - random modes: offset = floor(U[0,1) x total) rounded down to a block, one block (cut at the file end);
//   - rndrw: a read while (reads done + 1) / (writes done + 1) < rw ratio, else a write, with the reads and
//     writes the asking thread completed (sysbench 1.0's per-thread counters): a steered mix, not a draw;
//   - periodic fsync: when some write was handed out and the count of data requests handed out is a
//     multiple of --file-fsync-freq, one fsync request per file (test_file.0, .1, ...) comes first;
//   - --events counts every request handed out, fsyncs included.
// Completions feed the totals, the per-interval counts and the latency histograms.
#include <cstdint>
#include <mutex>
#include <vector>

#include "common/rng.h"
#include "stats/latency_histogram.h"
#include "suites/sysbench_options.h"

namespace sluice {

enum class SysbenchOp : std::uint8_t { kRead, kWrite, kFsync, kStop };

struct SysbenchRequest {
  SysbenchOp op = SysbenchOp::kStop;
  std::uint32_t file = 0;
  std::uint64_t offset = 0;
  std::uint32_t length = 0;
};

// Operation counts and bytes, over the run or over one interval.
struct SysbenchCounts {
  std::uint64_t reads = 0;
  std::uint64_t writes = 0;
  std::uint64_t fsyncs = 0;  // periodic, after-each-write and end-of-test fsyncs (sysbench's other_ops)
  std::uint64_t bytes_read = 0;
  std::uint64_t bytes_written = 0;
  std::uint64_t events = 0;  // completed events (end-of-test fsyncs are not events)
};

class SysbenchRequests {
 public:
  // `options` must be normalised (normalise_sysbench_options) and have a mode.
  SysbenchRequests(const SysbenchOptions& options, std::uint64_t seed);

  // The next request for thread `thread` (< options.threads), or kStop when --events requests were handed
  // out. Thread-safe.
  SysbenchRequest next(std::uint32_t thread = 0);
  // Records an event `thread` completed: its operation, bytes moved, latency in ns, and the fsyncs done
  // inside it (1 with --file-fsync-all after a write). Thread-safe.
  void complete(SysbenchOp op, std::uint64_t bytes, std::uint64_t latency_ns, std::uint32_t inner_fsyncs,
                std::uint32_t thread = 0);
  // Records end-of-test fsyncs: counted as fsyncs, not as events. Thread-safe.
  void count_end_fsyncs(std::uint64_t n);

  // Totals so far, and the histogram of every event's latency. Thread-safe copies.
  SysbenchCounts totals() const;
  LatencyHistogram histogram() const;
  // The counts and latency histogram since the previous call (the interval line's numbers).
  void take_interval(SysbenchCounts& counts, LatencyHistogram& histogram);

 private:
  SysbenchRequest next_sequential(SysbenchOp op);
  SysbenchRequest next_random(SysbenchOp op);
  SysbenchOp data_op(std::uint32_t thread) const noexcept;

  const SysbenchOptions options_;
  const std::uint64_t file_size_;
  mutable std::mutex mutex_;
  Rng rng_;
  std::uint64_t handed_out_ = 0;     // every request, for --events
  std::uint64_t data_requests_ = 0;  // sysbench's req_performed
  bool dirty_ = false;
  std::uint32_t fsync_cursor_ = 0;
  std::uint32_t seq_file_ = 0;
  std::uint64_t seq_pos_ = 0;
  SysbenchCounts totals_;
  std::vector<SysbenchCounts> per_thread_;  // the completed reads and writes that steer rndrw
  SysbenchCounts interval_;
  LatencyHistogram histogram_;
  LatencyHistogram interval_histogram_;
};

}  // namespace sluice
