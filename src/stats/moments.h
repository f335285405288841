#pragma once
// Moments: count, min, max, mean and variance of a stream of values, with an exact parallel merge
// (Welford's update, Chan et al.'s combination), so per-thread moments merge into job, group and host totals.
#include <cstdint>
#include <limits>

#include <nlohmann/json_fwd.hpp>

namespace sluice {

class Moments {
 public:
  void add(double x) noexcept {
    ++n_;
    if (x < min_) min_ = x;
    if (x > max_) max_ = x;
    const double delta = x - mean_;
    mean_ += delta / static_cast<double>(n_);
    m2_ += delta * (x - mean_);
  }
  void merge(const Moments& other) noexcept;
  void reset() noexcept { *this = Moments{}; }

  std::uint64_t count() const noexcept { return n_; }
  double min() const noexcept { return n_ ? min_ : 0.0; }
  double max() const noexcept { return n_ ? max_ : 0.0; }
  double mean() const noexcept { return n_ ? mean_ : 0.0; }
  double variance() const noexcept;  // sample variance (n-1), as fio reports; 0 for n < 2
  double stddev() const noexcept;

  nlohmann::json to_json() const;
  static Moments from_json(const nlohmann::json& j);

 private:
  std::uint64_t n_ = 0;
  double min_ = std::numeric_limits<double>::infinity();
  double max_ = -std::numeric_limits<double>::infinity();
  double mean_ = 0.0;
  double m2_ = 0.0;
};

}  // namespace sluice
