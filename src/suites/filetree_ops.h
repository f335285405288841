#pragma once
// Per-operation latency of the filetree steps: every file-system call a step makes is timed and recorded
// in a histogram per kind (stats/latency_histogram.h), one recorder per thread, merged at the end.
#include <array>
#include <cstdint>
#include <string_view>

#include "common/clock.h"
#include "stats/latency_histogram.h"

namespace sluice {

enum class FileOp { kMkdir, kCreate, kOpen, kRead, kWrite, kClose, kChmod, kUtimens, kUnlink, kRmdir, kSync, kCount };

inline constexpr std::size_t kFileOpCount = static_cast<std::size_t>(FileOp::kCount);

// "mkdir", "create" (open with O_CREAT), "open", "read", "write", "close", "chmod", "utimens", "unlink",
// "rmdir", "sync" (syncfs at the end of a step).
std::string_view file_op_name(FileOp op);

struct OpLatency {
  LatencyHistogram histogram;
  std::uint64_t sum_ns = 0;
  std::uint64_t max_ns = 0;

  void record(std::uint64_t ns) noexcept {
    histogram.record(ns);
    sum_ns += ns;
    max_ns = ns > max_ns ? ns : max_ns;
  }
  void merge(const OpLatency& other) noexcept;
};

// The latencies of one thread (or, merged, of one step). Not synchronised.
class OpRecorder {
 public:
  // Runs call() and records its duration under `op`; returns what call() returned.
  template <typename Call>
  auto timed(FileOp op, Call&& call) {
    const std::uint64_t start = monotonic_ns();
    auto result = call();
    ops_[static_cast<std::size_t>(op)].record(monotonic_ns() - start);
    return result;
  }
  void merge(const OpRecorder& other) noexcept;
  const OpLatency& of(FileOp op) const noexcept { return ops_[static_cast<std::size_t>(op)]; }

 private:
  std::array<OpLatency, kFileOpCount> ops_;
};

}  // namespace sluice
