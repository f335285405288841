#include "stats/moments.h"

#include <cmath>
#include <nlohmann/json.hpp>

namespace sluice {

// Chan et al.: the combined mean moves by delta * n_b / n, and m2 gains delta^2 * n_a * n_b / n.
void Moments::merge(const Moments& other) noexcept {
  if (other.n_ == 0) return;
  if (n_ == 0) {
    *this = other;
    return;
  }
  const double na = static_cast<double>(n_);
  const double nb = static_cast<double>(other.n_);
  const double n = na + nb;
  const double delta = other.mean() - mean();
  const double mean = this->mean() + delta * nb / n;
  const double m2 = this->m2() + other.m2() + delta * delta * na * nb / n;
  n_ += other.n_;
  shift_ = mean;  // re-centre on the combined mean: s1 = 0, s2 = M2
  s1_ = 0.0;
  s2_ = m2;
  if (other.min_ < min_) min_ = other.min_;
  if (other.max_ > max_) max_ = other.max_;
}

double Moments::m2() const noexcept {
  if (n_ == 0) return 0.0;
  const double m2 = s2_ - s1_ * s1_ / static_cast<double>(n_);
  return m2 > 0.0 ? m2 : 0.0;
}

double Moments::variance() const noexcept {
  if (n_ < 2) return 0.0;
  const double v = m2() / static_cast<double>(n_ - 1);
  return v > 0.0 ? v : 0.0;
}

double Moments::stddev() const noexcept { return std::sqrt(variance()); }

nlohmann::json Moments::to_json() const {
  return {{"n", n_}, {"min", min()}, {"max", max()}, {"mean", mean()}, {"m2", m2()}};
}

Moments Moments::from_json(const nlohmann::json& j) {
  Moments m;
  m.n_ = j.at("n").get<std::uint64_t>();
  if (m.n_ == 0) return m;
  m.min_ = j.at("min").get<double>();
  m.max_ = j.at("max").get<double>();
  m.shift_ = j.at("mean").get<double>();
  m.s2_ = j.at("m2").get<double>();
  return m;
}

}  // namespace sluice
