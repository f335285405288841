#include "suites/sysbench_run.h"

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <latch>
#include <memory>
#include <mutex>
#include <thread>

#include "common/aligned_buffer.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/stop_signal.h"
#include "engine/engine.h"

namespace sluice {
namespace {

IoOp io_op_of(SysbenchOp op, SysbenchFsyncMode mode) noexcept {
  switch (op) {
    case SysbenchOp::kRead:
      return IoOp::kRead;
    case SysbenchOp::kWrite:
      return IoOp::kWrite;
    default:
      return mode == SysbenchFsyncMode::kFdatasync ? IoOp::kFdatasync : IoOp::kFsync;
  }
}

SysbenchOp sysbench_op_of(IoOp op) noexcept {
  if (op == IoOp::kRead) return SysbenchOp::kRead;
  if (op == IoOp::kWrite) return SysbenchOp::kWrite;
  return SysbenchOp::kFsync;
}

// What every worker shares besides the generator: the stop flag and the first error.
struct Shared {
  Shared(SysbenchRequests& r, const SysbenchOptions& o) : requests(r), options(o) {}
  SysbenchRequests& requests;
  const SysbenchOptions& options;
  std::atomic<bool> stop{false};
  std::atomic<std::uint64_t> start_ns{0};
  std::mutex error_mutex;
  std::string error;
  int error_number = 0;

  void fail(const std::string& message, int e) {
    std::lock_guard lock(error_mutex);
    if (error.empty()) {
      error = message;
      error_number = e;
    }
    stop.store(true);
  }
  bool failed() {
    std::lock_guard lock(error_mutex);
    return !error.empty();
  }
};

class SysbenchWorker {
 public:
  SysbenchWorker(Shared& shared, const std::vector<int>& fds, EngineKind kind, std::uint32_t index)
      : shared_(shared), index_(index) {
    const SysbenchOptions& o = shared.options;
    depth_ = engine_traits(kind).async ? o.async_backlog : 1;
    const std::size_t buffer_bytes = round_to_direct_alignment(o.seq_request_size());
    units_.resize(depth_);
    EngineSetup setup;
    setup.depth = depth_;
    setup.fds = fds;
    setup.file_sizes.assign(fds.size(), o.file_size());
    setup.direct = o.o_direct;
    setup.writes = sysbench_mode_writes(*o.mode);
    for (std::uint32_t i = 0; i < depth_; ++i) {
      void* p = std::aligned_alloc(kDirectIoAlignment, buffer_bytes);
      if (p == nullptr) throw UserError("sysbench fileio: cannot allocate the I/O buffers");
      std::memset(p, 0, buffer_bytes);
      buffers_.emplace_back(p);
      setup.buffers.push_back({p, buffer_bytes});
      units_[i].index = i;
      units_[i].buffer = p;
      units_[i].buffer_index = static_cast<int>(i);
      free_.push_back(&units_[i]);
    }
    engine_ = make_engine(kind);
    engine_->open(setup);
    latency_min_ns_ = ~0ull;
  }

  void run(std::latch& start, std::uint64_t deadline_ns_after_start) {
    start.arrive_and_wait();
    const std::uint64_t deadline = deadline_ns_after_start == 0 ? 0 : shared_.start_ns.load() + deadline_ns_after_start;
    try {
      loop(deadline);
      drain();
      if (shared_.options.fsync_end && sysbench_mode_writes(*shared_.options.mode) && !shared_.failed()) {
        end_fsyncs();
      }
    } catch (const std::exception& e) {
      shared_.fail(e.what(), 0);
    }
    engine_->close();
  }

  SysbenchThreadResult result() const { return {events_, busy_ns_}; }
  std::uint64_t latency_min_ns() const { return events_ == 0 ? 0 : latency_min_ns_; }
  std::uint64_t latency_max_ns() const { return latency_max_ns_; }

 private:
  void loop(std::uint64_t deadline) {
    const SysbenchOptions& o = shared_.options;
    while (!shared_.stop.load(std::memory_order_relaxed) && !stop_requested()) {
      if (deadline != 0 && monotonic_ns() >= deadline) break;
      const SysbenchRequest r = shared_.requests.next(index_);
      if (r.op == SysbenchOp::kStop) break;
      // sysbench waits for a completion inside the event whose submit filled the backlog; here the wait
      // opens the next event, which times the same work.
      const std::uint64_t begin = monotonic_ns();
      if (free_.empty()) reap(1);
      IoUnit* u = free_.back();
      free_.pop_back();
      u->op = io_op_of(r.op, o.fsync_mode);
      u->file_index = static_cast<int>(r.file);
      u->offset = r.offset;
      u->length = r.length;
      u->submit_begin_ns = begin;
      submit(u);
      u->submit_end_ns = monotonic_ns();
      reap(0);
    }
  }

  void submit(IoUnit* u) {
    IoUnit* batch[1] = {u};
    while (engine_->submit(batch) == 0) reap(1);
    ++in_flight_;
  }

  // Reaps at least `min` completions; each is an event done (fsync-all adds the write's fsync to it).
  void reap(unsigned min) {
    IoUnit* done[64];
    unsigned got = 0;
    do {
      const int n = engine_->reap(min > got ? min - got : 0, done);
      for (int i = 0; i < n; ++i) finish(*done[i]);
      got += static_cast<unsigned>(n);
      if (n == 0) break;
    } while (got < min);
  }

  void finish(IoUnit& u) {
    --in_flight_;
    free_.push_back(&u);
    const SysbenchOptions& o = shared_.options;
    if (u.result < 0 || (u.result == 0 && (u.op == IoOp::kRead || u.op == IoOp::kWrite))) {
      const int e = u.result < 0 ? static_cast<int>(-u.result) : 0;
      shared_.fail(fmt::format("sysbench fileio: {} of test_file.{} at offset {}: {}",
                               u.op == IoOp::kRead    ? "read"
                               : u.op == IoOp::kWrite ? "write"
                                                      : "fsync",
                               u.file_index, u.offset, e != 0 ? std::strerror(e) : "end of file"),
                   e);
      return;
    }
    std::uint32_t inner = 0;
    if (u.op == IoOp::kWrite && o.fsync_all) {
      IoUnit sync;
      sync.op = io_op_of(SysbenchOp::kFsync, o.fsync_mode);
      sync.file_index = u.file_index;
      if (run_one(sync) < 0) return;
      inner = 1;
    }
    // Synchronous engines: the event is the whole call (and its fsync); async: the submit, as sysbench.
    const std::uint64_t end = engine_->caps().async ? u.submit_end_ns : monotonic_ns();
    const std::uint64_t latency = end - u.submit_begin_ns;
    shared_.requests.complete(
        sysbench_op_of(u.op),
        static_cast<std::uint64_t>(u.result > 0 ? u.result : 0) * (u.op == IoOp::kRead || u.op == IoOp::kWrite ? 1 : 0),
        latency, inner, index_);
    ++events_;
    busy_ns_ += latency;
    if (latency < latency_min_ns_) latency_min_ns_ = latency;
    if (latency > latency_max_ns_) latency_max_ns_ = latency;
  }

  // One non-event io to completion (fsync-all, end-of-test fsyncs), outside the unit pool's accounting.
  std::int64_t run_one(IoUnit& sync) {
    IoUnit* batch[1] = {&sync};
    if (engine_->submit(batch) != 1) {
      shared_.fail("sysbench fileio: the engine refused an fsync", 0);
      return -1;
    }
    IoUnit* done[64];
    for (;;) {
      const int n = engine_->reap(1, done);
      bool mine = false;
      for (int i = 0; i < n; ++i) {
        if (done[i] == &sync) {
          mine = true;
        } else {
          finish(*done[i]);
        }
      }
      if (mine) break;
    }
    if (sync.result < 0) {
      shared_.fail(fmt::format("sysbench fileio: fsync of test_file.{}: {}", sync.file_index,
                               std::strerror(static_cast<int>(-sync.result))),
                   static_cast<int>(-sync.result));
    }
    return sync.result;
  }

  void drain() {
    while (in_flight_ > 0) reap(1);
  }

  void end_fsyncs() {
    for (std::size_t f = 0; f < shared_.options.file_num; ++f) {
      IoUnit sync;
      sync.op = io_op_of(SysbenchOp::kFsync, shared_.options.fsync_mode);
      sync.file_index = static_cast<int>(f);
      if (run_one(sync) < 0) return;
      shared_.requests.count_end_fsyncs(1);
    }
  }

  Shared& shared_;
  const std::uint32_t index_;
  std::uint32_t depth_ = 1;
  std::unique_ptr<Engine> engine_;
  std::vector<IoUnit> units_;
  std::vector<std::unique_ptr<void, FreeDeleter>> buffers_;
  std::vector<IoUnit*> free_;
  std::uint32_t in_flight_ = 0;
  std::uint64_t events_ = 0;
  std::uint64_t busy_ns_ = 0;
  std::uint64_t latency_min_ns_ = 0;
  std::uint64_t latency_max_ns_ = 0;
};

}  // namespace

EngineKind sysbench_engine_for(SysbenchIoMode mode) noexcept {
  switch (mode) {
    case SysbenchIoMode::kAsync:
      return EngineKind::kLibaio;
    case SysbenchIoMode::kMmap:
      return EngineKind::kMmap;
    case SysbenchIoMode::kSync:
      break;
  }
  return EngineKind::kPsync;
}

SysbenchRunResult run_sysbench(const SysbenchOptions& options, const std::vector<int>& fds, EngineKind engine,
                               std::uint64_t seed, const std::function<void(const SysbenchInterval&)>& on_interval) {
  SysbenchRequests requests(options, seed);
  Shared shared(requests, options);
  std::vector<std::unique_ptr<SysbenchWorker>> workers;
  for (std::uint32_t i = 0; i < options.threads; ++i)
    workers.push_back(std::make_unique<SysbenchWorker>(shared, fds, engine, i));

  install_stop_signal_handlers();
  std::latch start(static_cast<std::ptrdiff_t>(options.threads) + 1);
  const std::uint64_t limit_ns = options.time_s * 1'000'000'000ull;
  std::atomic<std::uint32_t> running{options.threads};
  std::mutex done_mutex;
  std::condition_variable done_cv;
  std::vector<std::thread> threads;
  threads.reserve(workers.size());
  for (auto& w : workers) {
    threads.emplace_back([&, worker = w.get()] {
      worker->run(start, limit_ns);
      std::lock_guard lock(done_mutex);
      running.fetch_sub(1);
      done_cv.notify_all();
    });
  }
  const std::uint64_t start_ns = monotonic_ns();
  shared.start_ns.store(start_ns);
  start.arrive_and_wait();

  SysbenchRunResult result;
  {
    // Interval lines: the main thread wakes every --report-interval until the workers are done.
    const std::uint64_t step = options.report_interval_s * 1'000'000'000ull;
    std::uint64_t next = start_ns + step;
    std::uint64_t previous = start_ns;
    std::unique_lock lock(done_mutex);
    while (running.load() > 0) {
      if (step == 0) {
        done_cv.wait(lock, [&] { return running.load() == 0; });
        break;
      }
      const std::uint64_t now_ns = monotonic_ns();
      const auto wait = std::chrono::nanoseconds(next > now_ns ? next - now_ns : 0);
      if (done_cv.wait_for(lock, wait, [&] { return running.load() == 0; })) break;
      const std::uint64_t now = monotonic_ns();
      SysbenchInterval interval;
      requests.take_interval(interval.counts, interval.histogram);
      interval.end_s = static_cast<double>(now - start_ns) / 1e9;
      interval.seconds = static_cast<double>(now - previous) / 1e9;
      previous = now;
      next += step;
      lock.unlock();
      if (on_interval) on_interval(interval);
      result.intervals.push_back(std::move(interval));
      lock.lock();
    }
  }
  for (std::thread& t : threads) t.join();
  const std::uint64_t end_ns = monotonic_ns();
  if (shared.failed()) throw IoError(shared.error, shared.error_number);

  result.seed = seed;
  result.engine = engine;
  result.total_time_s = static_cast<double>(end_ns - start_ns) / 1e9;
  result.counts = requests.totals();
  result.histogram = requests.histogram();
  result.interrupted = stop_requested();
  bool first = true;
  for (const auto& w : workers) {
    const SysbenchThreadResult t = w->result();
    result.threads.push_back(t);
    result.latency_sum_ns += t.busy_ns;
    if (t.events == 0) continue;
    result.latency_min_ns = first ? w->latency_min_ns() : std::min(result.latency_min_ns, w->latency_min_ns());
    result.latency_max_ns = std::max(result.latency_max_ns, w->latency_max_ns());
    first = false;
  }
  return result;
}

}  // namespace sluice
