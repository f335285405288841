#pragma once
// Moments: count, min, max, mean and variance of a stream of values, with an exact parallel merge
// (Chan et al.'s combination), so per-thread moments merge into job, group and host totals.
// add() is on the per-io path, so it keeps shifted sums (no division): with K the first value,
// s1 = sum(x - K) and s2 = sum((x - K)^2); mean = K + s1/n and M2 = s2 - s1^2/n. Shifting by a value of the
// stream keeps the cancellation in M2 small (the textbook "shifted data" algorithm).
#include <cstdint>
#include <limits>
#include <nlohmann/json_fwd.hpp>

namespace sluice {

class Moments {
 public:
  void add(double x) noexcept {
    if (n_ == 0) shift_ = x;
    ++n_;
    if (x < min_) min_ = x;
    if (x > max_) max_ = x;
    const double d = x - shift_;
    s1_ += d;
    s2_ += d * d;
  }
  void merge(const Moments& other) noexcept;
  void reset() noexcept { *this = Moments{}; }

  std::uint64_t count() const noexcept { return n_; }
  double min() const noexcept { return n_ ? min_ : 0.0; }
  double max() const noexcept { return n_ ? max_ : 0.0; }
  double mean() const noexcept { return n_ ? shift_ + s1_ / static_cast<double>(n_) : 0.0; }
  double variance() const noexcept;  // sample variance (n-1), as fio reports; 0 for n < 2
  double stddev() const noexcept;

  nlohmann::json to_json() const;
  static Moments from_json(const nlohmann::json& j);

 private:
  std::uint64_t n_ = 0;
  double min_ = std::numeric_limits<double>::infinity();
  double max_ = -std::numeric_limits<double>::infinity();
  double shift_ = 0.0;
  double s1_ = 0.0;
  double s2_ = 0.0;

  double m2() const noexcept;
};

}  // namespace sluice
