#include "stats/latency_histogram.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "common/error.h"

namespace sluice {

namespace {
constexpr const char* kScheme = "log-linear-64";
constexpr int kExactBuckets = 1 << LatencyHistogram::kSubBits;
}  // namespace

LatencyHistogram::LatencyHistogram() = default;

void LatencyHistogram::allocate() noexcept { counts_.assign(static_cast<std::size_t>(kNumBuckets), 0); }

void LatencyHistogram::merge(const LatencyHistogram& other) noexcept {
  if (!other.counts_.empty()) {
    if (counts_.empty()) allocate();
    for (std::size_t i = 0; i < counts_.size(); ++i) counts_[i] += other.counts_[i];
  }
  total_ += other.total_;
  overflow_ += other.overflow_;
}

void LatencyHistogram::reset() noexcept {
  std::fill(counts_.begin(), counts_.end(), 0);
  total_ = 0;
  overflow_ = 0;
}

std::uint64_t LatencyHistogram::bucket_low(int bucket) noexcept {
  if (bucket < kExactBuckets) return static_cast<std::uint64_t>(bucket);
  const int shift = (bucket >> (kSubBits - 1)) - 1;
  const std::uint64_t mantissa = static_cast<std::uint64_t>(bucket & (kSubBuckets - 1)) + kSubBuckets;
  return mantissa << shift;
}

std::uint64_t LatencyHistogram::bucket_high(int bucket) noexcept {
  if (bucket < kExactBuckets) return static_cast<std::uint64_t>(bucket);
  const int shift = (bucket >> (kSubBits - 1)) - 1;
  return bucket_low(bucket) + (1ull << shift) - 1;
}

std::uint64_t LatencyHistogram::bucket_value(int bucket) noexcept {
  const std::uint64_t low = bucket_low(bucket);
  return low + (bucket_high(bucket) - low) / 2;
}

// fio's rank: the first bucket whose cumulative count reaches p/100 * total (computed in long double as fio
// does, so boundary cases agree), but at least rank 1 so p = 0 gives the smallest recorded value.
std::uint64_t LatencyHistogram::percentile(double p) const noexcept {
  if (total_ == 0 || counts_.empty()) return 0;
  const long double clamped = std::clamp(static_cast<long double>(p), 0.0L, 100.0L);
  long double target = clamped / 100.0L * static_cast<long double>(total_);
  if (target < 1.0L) target = 1.0L;
  std::uint64_t sum = 0;
  for (int b = 0; b < kNumBuckets; ++b) {
    sum += counts_[static_cast<std::size_t>(b)];
    if (static_cast<long double>(sum) >= target) return bucket_value(b);
  }
  return bucket_value(kNumBuckets - 1);
}

std::vector<std::uint64_t> LatencyHistogram::percentiles(const std::vector<double>& ps) const {
  std::vector<std::uint64_t> out;
  out.reserve(ps.size());
  for (double p : ps) out.push_back(percentile(p));
  return out;
}

nlohmann::json LatencyHistogram::to_json() const {
  nlohmann::json counts = nlohmann::json::array();
  for (int b = 0; b < static_cast<int>(counts_.size()); ++b) {
    const std::uint64_t c = counts_[static_cast<std::size_t>(b)];
    if (c != 0) counts.push_back({b, c});
  }
  return {{"bucket_scheme", kScheme}, {"counts", std::move(counts)}, {"overflow", overflow_}};
}

LatencyHistogram LatencyHistogram::from_json(const nlohmann::json& j) {
  if (!j.is_object() || j.value("bucket_scheme", std::string()) != kScheme) {
    throw UserError(std::string("latency histogram: expected bucket_scheme \"") + kScheme + "\"");
  }
  LatencyHistogram h;
  for (const auto& entry : j.at("counts")) {
    const int b = entry.at(0).get<int>();
    if (b < 0 || b >= kNumBuckets) throw UserError("latency histogram: bucket index out of range");
    const auto c = entry.at(1).get<std::uint64_t>();
    if (c == 0) continue;
    if (h.counts_.empty()) h.allocate();
    h.counts_[static_cast<std::size_t>(b)] += c;
    h.total_ += c;
  }
  h.overflow_ = j.value("overflow", std::uint64_t{0});
  return h;
}

}  // namespace sluice
