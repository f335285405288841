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
  const double delta = other.mean_ - mean_;
  mean_ += delta * nb / n;
  m2_ += other.m2_ + delta * delta * na * nb / n;
  n_ += other.n_;
  if (other.min_ < min_) min_ = other.min_;
  if (other.max_ > max_) max_ = other.max_;
}

double Moments::variance() const noexcept {
  if (n_ < 2) return 0.0;
  const double v = m2_ / static_cast<double>(n_ - 1);
  return v > 0.0 ? v : 0.0;
}

double Moments::stddev() const noexcept { return std::sqrt(variance()); }

nlohmann::json Moments::to_json() const {
  return {{"n", n_}, {"min", min()}, {"max", max()}, {"mean", mean_}, {"m2", m2_}};
}

Moments Moments::from_json(const nlohmann::json& j) {
  Moments m;
  m.n_ = j.at("n").get<std::uint64_t>();
  if (m.n_ == 0) return m;
  m.min_ = j.at("min").get<double>();
  m.max_ = j.at("max").get<double>();
  m.mean_ = j.at("mean").get<double>();
  m.m2_ = j.at("m2").get<double>();
  return m;
}

}  // namespace sluice
