// cpuio: no I/O; each io burns a CPU (fio's cpuio engine) and the runner follows it with a think time of
// (100 - cpuload) / cpuload times the io's own time (run/plan.cpp sets it, as fio's engine does), so the job
// keeps cpuload percent of one CPU busy; its result is the job's CPU use (its ios move no bytes).
// cpumode=noop spins on the clock for cpuchunks microseconds; cpumode=qsort sorts fio's 256 Ki 32-bit
// integers (ascending, descending, by byte, descending again) once per io, whatever cpuchunks says (fio's
// qsort mode sets its cycle to the time of one such sort).
#include <time.h>

#include <cerrno>
#include <cstdlib>
#include <vector>

#include "engine/engines.h"
#include "engine/synchronous_engine.h"

namespace sluice {
namespace {

constexpr std::size_t kSortInts = 256 * 1024;  // fio's qsort_size

std::uint64_t now_ns() noexcept {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}

int ascending(const void* a, const void* b) {
  const auto x = *static_cast<const std::int32_t*>(a);
  const auto y = *static_cast<const std::int32_t*>(b);
  return (x > y) - (x < y);
}
int descending(const void* a, const void* b) { return ascending(b, a); }
int by_byte(const void* a, const void* b) {
  return *static_cast<const std::int8_t*>(a) - *static_cast<const std::int8_t*>(b);
}

class CpuioEngine final : public detail::SynchronousEngine<CpuioEngine> {
  friend class detail::SynchronousEngine<CpuioEngine>;

 public:
  explicit CpuioEngine(const CpuioOptions& options) : options_(options) {}
  std::string_view name() const noexcept override { return engine_name(EngineKind::kCpuio); }
  EngineCaps caps() const noexcept override { return engine_traits(EngineKind::kCpuio); }

  void open(const EngineSetup& setup) override {
    cycle_ns_ = static_cast<std::uint64_t>(options_.cpuchunks_us) * 1000;
    qsort_ = options_.qsort;
    if (qsort_) {
      // fio's multiply-with-carry generator and seeds: the same data to sort.
      std::uint32_t w = 521288629u, z = 362436069u;
      data_.resize(kSortInts);
      for (std::int32_t& v : data_) {
        z = 36969 * (z & 65535) + (z >> 16);
        w = 18000 * (w & 65535) + (w >> 16);
        v = static_cast<std::int32_t>((z << 16) + w);
      }
    }
    reset_completions(setup.depth);
  }
  void close() noexcept override {}

 private:
  std::int64_t perform(const IoUnit& u) noexcept {
    if (u.op != IoOp::kRead && u.op != IoOp::kWrite) return -EOPNOTSUPP;  // validation refuses trims and syncs
    if (qsort_) {
      std::qsort(data_.data(), data_.size(), sizeof(std::int32_t), ascending);
      std::qsort(data_.data(), data_.size(), sizeof(std::int32_t), descending);
      std::qsort(data_.data(), data_.size() * sizeof(std::int32_t), 1, by_byte);
      std::qsort(data_.data(), data_.size(), sizeof(std::int32_t), descending);
    } else {
      const std::uint64_t end = now_ns() + cycle_ns_;
      while (now_ns() < end) {
      }
    }
    return u.length;
  }

  std::uint64_t cycle_ns_ = 0;
  CpuioOptions options_;
  bool qsort_ = false;
  std::vector<std::int32_t> data_;
};

}  // namespace

std::unique_ptr<Engine> make_cpuio_engine(const CpuioOptions& options) {
  return std::make_unique<CpuioEngine>(options);
}

}  // namespace sluice
