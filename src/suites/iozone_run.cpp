#include "suites/iozone_run.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>

#include "common/aligned_buffer.h"
#include "common/clock.h"
#include "common/created_files.h"
#include "common/error.h"
#include "common/stop_signal.h"
#include "engine/engine.h"
#include "stats/latency_histogram.h"

namespace sluice {
namespace {

constexpr unsigned char kFill = 0xA5;  // iozone fills its buffer with a pattern, not zeros

double cpu_seconds() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  const auto secs = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return secs(u.ru_utime) + secs(u.ru_stime);
}

// The 48-bit generator of srand48/lrand48, so the permutation does not depend on the C library.
class Rand48 {
 public:
  explicit Rand48(std::uint64_t seed) : x_((seed << 16) | 0x330E) {}
  std::uint64_t next() noexcept {
    x_ = (0x5DEECE66Dull * x_ + 0xB) & ((1ull << 48) - 1);
    return x_ >> 17;
  }

 private:
  std::uint64_t x_;
};

// Record numbers 0..n-1 in a fixed-seed Fisher-Yates order: every record exactly once.
std::vector<std::uint64_t> permutation(std::uint64_t n) {
  std::vector<std::uint64_t> order(n);
  for (std::uint64_t i = 0; i < n; ++i) order[i] = i;
  Rand48 rng(0);
  for (std::uint64_t i = n; i > 1; --i) std::swap(order[i - 1], order[rng.next() % i]);
  return order;
}

// Everything one cell's passes share.
class CellRunner {
 public:
  CellRunner(const IozoneOptions& o, const IozoneCell& cell, const std::string& path, std::uint64_t resolution_ns,
             LatencyHistogram& histogram)
      : o_(o),
        path_(path),
        resolution_ns_(resolution_ns),
        reclen_(cell.rec_kb * 1024),
        numrecs_(cell.file_kb * 1024 / reclen_),
        histogram_(histogram) {
    const std::size_t rounded = round_to_direct_alignment(reclen_);
    buffer_.reset(std::aligned_alloc(kDirectIoAlignment, rounded));
    if (!buffer_) throw UserError(fmt::format("iozone: cannot allocate a {}-byte record buffer", reclen_));
    std::memset(buffer_.get(), kFill, rounded);
  }

  // Test 0's first pass: creat() truncates, then the file is opened for the timed writes.
  void create() {
    if (!created_) journal_creating(path_);
    const int fd = ::open(path_.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0644);
    if (fd < 0) fail("creat", 0, errno);
    ::close(fd);
    if (!created_) journal_created(path_);
    created_ = true;
  }

  // A pass through the engine: open with `flags`, the untimed prelude, the timed loop of `op` at
  // offset_of(i) for i < numrecs, then fsync/close inside (-e/-c) or after the window.
  template <typename OffsetOf>
  bool engine_pass(IozonePass& out, IoOp op, int flags, bool sync_before, bool read_one_before, OffsetOf offset_of) {
    const double cpu0 = cpu_seconds();
    const std::uint64_t wall0 = monotonic_ns();
    const int fd = ::open(path_.c_str(), flags | (o_.direct ? O_DIRECT : 0), 0644);
    if (fd < 0) fail(o_.direct ? "open with O_DIRECT (-I)" : "open", 0, errno);
    std::unique_ptr<Engine> engine = make_engine(EngineKind::kPsync);
    EngineSetup setup;
    setup.fds = {fd};
    setup.direct = o_.direct;
    setup.writes = op == IoOp::kWrite;
    engine->open(setup);
    bool open = true;
    const auto finish = [&] {
      if (!open) return;
      engine->close();
      ::close(fd);
      open = false;
    };
    try {
      if (sync_before) ::fsync(fd);
      if (read_one_before) io(*engine, IoOp::kRead, 0);
      histogram_.reset();
      std::uint64_t min = ~0ull, max = 0, sum = 0;
      const std::uint64_t start = monotonic_ns();
      std::uint64_t before = start;
      for (std::uint64_t i = 0; i < numrecs_; ++i) {
        if (stop_requested()) {
          finish();
          return false;
        }
        io(*engine, op, offset_of(i));
        const std::uint64_t after = monotonic_ns();
        const std::uint64_t ns = after - before;
        histogram_.record(ns);
        min = std::min(min, ns);
        max = std::max(max, ns);
        sum += ns;
        before = after;
      }
      if (o_.fsync_in_timing) io(*engine, IoOp::kFsync, 0);
      if (o_.close_in_timing) finish();
      const std::uint64_t end = monotonic_ns();
      if (!o_.fsync_in_timing && open) io(*engine, IoOp::kFsync, 0);
      finish();
      record(out, end - start, min, max, sum);
      out.cpu_percent = cpu_percent(cpu0, wall0);
      return true;
    } catch (...) {
      finish();
      throw;
    }
  }

  // Tests 6 and 7: stdio with a record-sized buffer (-I does not apply, as in iozone).
  bool stdio_pass(IozonePass& out, bool write) {
    const double cpu0 = cpu_seconds();
    const std::uint64_t wall0 = monotonic_ns();
    const bool exists = ::access(path_.c_str(), F_OK) == 0;
    if (write && !exists && !created_) journal_creating(path_);
    std::FILE* f = std::fopen(path_.c_str(), write ? (exists ? "r+" : "w+") : "r");
    if (f == nullptr) fail("fopen", 0, errno);
    if (write && !created_) {
      journal_created(path_);
      created_ = true;
    }
    std::unique_ptr<char, FreeDeleter> stdio_buffer(static_cast<char*>(std::malloc(reclen_)));
    std::setvbuf(f, stdio_buffer.get(), _IOFBF, reclen_);
    bool open = true;
    const auto close_file = [&] {
      if (open) std::fclose(f);
      open = false;
    };
    histogram_.reset();
    std::uint64_t min = ~0ull, max = 0, sum = 0;
    const std::uint64_t start = monotonic_ns();
    std::uint64_t before = start;
    for (std::uint64_t i = 0; i < numrecs_; ++i) {
      if (stop_requested()) {
        close_file();
        return false;
      }
      const std::size_t n =
          write ? std::fwrite(buffer_.get(), reclen_, 1, f) : std::fread(buffer_.get(), reclen_, 1, f);
      if (n != 1) {
        const int e = errno;
        close_file();
        fail(write ? "fwrite" : "fread", i * reclen_, e);
      }
      const std::uint64_t after = monotonic_ns();
      const std::uint64_t ns = after - before;
      histogram_.record(ns);
      min = std::min(min, ns);
      max = std::max(max, ns);
      sum += ns;
      before = after;
    }
    const auto flush = [&] {
      std::fflush(f);
      ::fsync(::fileno(f));
    };
    if (o_.fsync_in_timing) flush();
    if (o_.close_in_timing) close_file();
    const std::uint64_t end = monotonic_ns();
    if (open && !o_.fsync_in_timing) flush();
    close_file();
    record(out, end - start, min, max, sum);
    out.cpu_percent = cpu_percent(cpu0, wall0);
    return true;
  }

  // Removes the file if this cell created it.
  void remove() noexcept {
    if (!created_) return;
    ::unlink(path_.c_str());
    journal_removed(path_);
    created_ = false;
  }

  std::uint64_t reclen() const noexcept { return reclen_; }
  std::uint64_t numrecs() const noexcept { return numrecs_; }

 private:
  [[noreturn]] void fail(const char* call, std::uint64_t offset, int e) const {
    throw IoError(
        fmt::format("iozone: {} of '{}' (record {} B, offset {}): {}{}", call, path_, reclen_, offset, std::strerror(e),
                    e == EINVAL && o_.direct ? "; with -I the filesystem must accept O_DIRECT (tmpfs does "
                                               "not) and the record be a multiple of its block size"
                                             : ""),
        e);
  }

  void io(Engine& engine, IoOp op, std::uint64_t offset) {
    IoUnit unit;
    unit.op = op;
    unit.offset = offset;
    unit.length = static_cast<std::uint32_t>(reclen_);
    unit.buffer = buffer_.get();
    IoUnit* batch[1] = {&unit};
    if (engine.submit(batch) != 1) fail("submit", offset, EAGAIN);
    IoUnit* done[1] = {nullptr};
    while (engine.reap(1, done) == 0) {
    }
    if (op == IoOp::kFsync) {
      if (unit.result < 0) fail("fsync", 0, static_cast<int>(-unit.result));
      return;
    }
    if (unit.result != static_cast<std::int64_t>(reclen_)) {
      fail(op == IoOp::kWrite ? "write" : "read", offset, unit.result < 0 ? static_cast<int>(-unit.result) : EIO);
    }
  }

  void record(IozonePass& out, std::uint64_t window_ns, std::uint64_t min, std::uint64_t max, std::uint64_t sum) {
    out.ran = true;
    out.records = numrecs_;
    iozone_rate(numrecs_ * reclen_, window_ns, resolution_ns_, out);
    out.latency.min_ns = numrecs_ == 0 ? 0 : min;
    out.latency.max_ns = max;
    out.latency.mean_ns = numrecs_ == 0 ? 0 : static_cast<double>(sum) / static_cast<double>(numrecs_);
    out.latency.p50_ns = histogram_.percentile(50);
    out.latency.p90_ns = histogram_.percentile(90);
    out.latency.p99_ns = histogram_.percentile(99);
    out.latency.p999_ns = histogram_.percentile(99.9);
  }

  double cpu_percent(double cpu0, std::uint64_t wall0) const {
    const double wall = static_cast<double>(monotonic_ns() - wall0) / 1e9;
    return wall <= 0 ? 0 : 100.0 * (cpu_seconds() - cpu0) / wall;
  }

  const IozoneOptions& o_;
  const std::string& path_;
  std::uint64_t resolution_ns_;
  std::uint64_t reclen_;
  std::uint64_t numrecs_;
  LatencyHistogram& histogram_;
  std::unique_ptr<void, FreeDeleter> buffer_;
  bool created_ = false;
};

// The passes of one cell in iozone's order; false when stopped.
bool run_cell(const IozoneOptions& o, const IozonePlan& plan, CellRunner& c, IozoneCellResult& r) {
  auto& p = r.passes;
  const std::uint64_t reclen = c.reclen();
  const auto sequential = [reclen](std::uint64_t i) { return i * reclen; };
  if (plan.selected[0]) {
    c.create();
    if (!c.engine_pass(p[0], IoOp::kWrite, O_RDWR, true, false, sequential)) return false;
    if (!c.engine_pass(p[1], IoOp::kWrite, O_RDWR, true, false, sequential)) return false;
  }
  if (plan.selected[1]) {
    if (!c.engine_pass(p[2], IoOp::kRead, O_RDONLY, true, true, sequential)) return false;
    if (!c.engine_pass(p[3], IoOp::kRead, O_RDONLY, true, true, sequential)) return false;
  }
  if (plan.selected[2]) {
    const std::vector<std::uint64_t> order = permutation(c.numrecs());
    const auto random = [&order, reclen](std::uint64_t i) { return order[i] * reclen; };
    if (!c.engine_pass(p[4], IoOp::kRead, O_RDWR | O_CREAT, false, false, random)) return false;
    if (!c.engine_pass(p[5], IoOp::kWrite, O_RDWR | O_CREAT, false, false, random)) return false;
  }
  if (plan.selected[3]) {
    const std::uint64_t last = c.numrecs() - 1;
    const auto backward = [last, reclen](std::uint64_t i) { return (last - i) * reclen; };
    if (!c.engine_pass(p[6], IoOp::kRead, O_RDONLY, false, false, backward)) return false;
  }
  if (plan.selected[4]) {
    if (!c.engine_pass(p[7], IoOp::kWrite, O_RDWR | O_CREAT, true, false, [](std::uint64_t) { return 0ull; }))
      return false;
  }
  if (plan.selected[5]) {
    // Read one record, skip stride-1; past size - reclen, start again one record further in (iozone's wraps).
    const std::uint64_t size = c.numrecs() * reclen;
    const std::uint64_t stride = o.stride_records * reclen;
    std::uint64_t offset = 0, wraps = 0;
    const auto strided = [&](std::uint64_t) {
      const std::uint64_t at = offset;
      offset += stride;
      if (offset > size - reclen) offset = (++wraps % c.numrecs()) * reclen;
      return at;
    };
    if (!c.engine_pass(p[8], IoOp::kRead, O_RDONLY, false, false, strided)) return false;
  }
  if (plan.selected[6]) {
    if (!c.stdio_pass(p[9], true) || !c.stdio_pass(p[10], true)) return false;
  }
  if (plan.selected[7]) {
    if (!c.stdio_pass(p[11], false) || !c.stdio_pass(p[12], false)) return false;
  }
  return true;
}

std::uint64_t clock_resolution_ns() {
  timespec ts{};
  ::clock_getres(CLOCK_MONOTONIC, &ts);
  const std::uint64_t ns =
      static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000ull + static_cast<std::uint64_t>(ts.tv_nsec);
  return ns == 0 ? 1 : ns;
}

}  // namespace

void iozone_rate(std::uint64_t bytes, std::uint64_t window_ns, std::uint64_t resolution_ns, IozonePass& out) {
  std::uint64_t elapsed_ns = window_ns > resolution_ns ? window_ns - resolution_ns : 0;
  if (elapsed_ns < resolution_ns) elapsed_ns = resolution_ns;
  out.bytes = bytes;
  out.seconds = static_cast<double>(elapsed_ns) / 1e9;
  out.kb_per_s = static_cast<std::uint64_t>(static_cast<double>(bytes) / out.seconds) >> 10;
}

IozoneRunResult run_iozone(const IozoneOptions& options, const IozonePlan& plan, const std::string& path,
                           const std::function<void(const IozoneCellResult&)>& on_cell) {
  IozoneRunResult result;
  result.time_resolution_ns = clock_resolution_ns();
  LatencyHistogram histogram;
  for (const IozoneCell& cell : plan.cells) {
    if (stop_requested()) break;
    IozoneCellResult r;
    r.cell = cell;
    CellRunner runner(options, cell, path, result.time_resolution_ns, histogram);
    bool complete = false;
    try {
      complete = run_cell(options, plan, runner, r);
    } catch (...) {
      runner.remove();
      throw;
    }
    runner.remove();
    result.cells.push_back(r);
    if (!complete) break;
    on_cell(r);
  }
  result.interrupted = stop_requested();
  return result;
}

}  // namespace sluice
