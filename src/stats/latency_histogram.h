#pragma once
// LatencyHistogram: a log-linear histogram of durations in nanoseconds.
//
// Layout: values below 2^kSubBits (128) ns each get their own bucket; above that, every power of two
// [2^k, 2^(k+1)) is split into 2^(kSubBits-1) = 64 equal buckets. A bucket's representative value is its
// midpoint, so the relative error of any reported value (percentile, bucket value) is at most
// 1/(2*64) = 0.78% < 1%. The range covers 1 ns to 2^kMaxPower ns (~78 hours); larger values are clamped
// into the last bucket and counted in overflow(). There is no 17 s clamp as in fio.
//
// Threads: not synchronised. Each worker owns its histograms; merge() them at intervals and at the end.
// Recording is an index computation (one clz) and an increment, no branch on the value's size beyond that.
//
// Memory: the bucket array (kNumBuckets counts, 22 KiB) is allocated by the first record() or merge() of a
// sample, so the many histograms a job never uses (slat of a sync engine, queue_wait of a closed loop, the
// directions it does not do) cost nothing: 64 jobs keep 13 histograms each, and their copies.
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <vector>

namespace sluice {

class LatencyHistogram {
 public:
  static constexpr int kSubBits = 7;                       // 2^7 = 128 exact buckets below 128 ns
  static constexpr int kSubBuckets = 1 << (kSubBits - 1);  // 64 buckets per power of two above that
  static constexpr int kMaxPower = 48;                     // 2^48 ns ~ 78 hours
  static constexpr int kNumBuckets = (1 << kSubBits) + (kMaxPower - kSubBits) * kSubBuckets;
  static constexpr double kMaxRelativeError = 1.0 / (2.0 * kSubBuckets);
  static constexpr std::uint64_t kMaxValue = (1ull << kMaxPower) - 1;  // largest value recorded unclamped

  LatencyHistogram();

  // Hot path: one clz, a compare (compiled to a conditional move) and two increments.
  void record(std::uint64_t value_ns) noexcept {
    if (counts_.empty()) [[unlikely]]
      allocate();
    ++counts_[static_cast<std::size_t>(bucket_of(value_ns))];
    ++total_;
    overflow_ += value_ns > kMaxValue ? 1u : 0u;
  }
  void record_n(std::uint64_t value_ns, std::uint64_t n) noexcept {
    if (counts_.empty()) [[unlikely]]
      allocate();
    counts_[static_cast<std::size_t>(bucket_of(value_ns))] += n;
    total_ += n;
    overflow_ += value_ns > kMaxValue ? n : 0u;
  }

  void merge(const LatencyHistogram& other) noexcept;
  void reset() noexcept;

  std::uint64_t total() const noexcept { return total_; }
  std::size_t heap_bytes() const noexcept { return counts_.capacity() * sizeof(std::uint64_t); }  // 0 until used
  std::uint64_t overflow() const noexcept { return overflow_; }  // samples clamped into the last bucket

  // Value at percentile p in [0, 100]: the representative value of the bucket holding the sample of rank
  // ceil(p/100 * total) (rank 1 for p = 0), as fio defines its percentiles. 0 when empty.
  std::uint64_t percentile(double p) const noexcept;
  std::vector<std::uint64_t> percentiles(const std::vector<double>& ps) const;

  // Values up to 127 map to themselves; above, bucket = 64 * shift + (value >> shift) where
  // shift = floor(log2(value)) - 6, so each power of two gets 64 buckets of width 2^shift.
  static int bucket_of(std::uint64_t value_ns) noexcept {
    const std::uint64_t v = value_ns < kMaxValue ? value_ns : kMaxValue;
    const int shift = 63 - std::countl_zero(v | (1ull << (kSubBits - 1))) - (kSubBits - 1);
    return (shift << (kSubBits - 1)) + static_cast<int>(v >> shift);
  }
  static std::uint64_t bucket_low(int bucket) noexcept;    // smallest value mapping to the bucket
  static std::uint64_t bucket_high(int bucket) noexcept;   // largest value mapping to the bucket
  static std::uint64_t bucket_value(int bucket) noexcept;  // representative (midpoint) value

  std::uint64_t count_at(int bucket) const noexcept {
    return counts_.empty() ? 0 : counts_[static_cast<std::size_t>(bucket)];
  }

  // Sparse serialization: {"bucket_scheme": "log-linear-64", "counts": [[bucket, count], ...], "overflow": n}.
  // from_json rejects a different scheme with a UserError.
  nlohmann::json to_json() const;
  static LatencyHistogram from_json(const nlohmann::json& j);

 private:
  void allocate() noexcept;  // sizes counts_ to kNumBuckets zeros (terminates if memory is exhausted)

  std::vector<std::uint64_t> counts_;  // empty until the first sample, then kNumBuckets entries
  std::uint64_t total_ = 0;
  std::uint64_t overflow_ = 0;
};

}  // namespace sluice
