#include "stats/steady_state.h"

#include <algorithm>
#include <cmath>

namespace sluice {

SeriesShape describe_series(std::span<const double> samples) {
  SeriesShape shape;
  const std::size_t n = samples.size();
  if (n == 0) return shape;
  double sum = 0;
  shape.min = samples[0];
  shape.max = samples[0];
  for (double v : samples) {
    sum += v;
    shape.min = std::min(shape.min, v);
    shape.max = std::max(shape.max, v);
  }
  shape.mean = sum / static_cast<double>(n);
  // Least squares against x = 0..n-1, centred so the sums stay small and exact enough.
  const double x_mean = static_cast<double>(n - 1) / 2.0;
  double sxy = 0;
  double sxx = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double dx = static_cast<double>(i) - x_mean;
    sxy += dx * (samples[i] - shape.mean);
    sxx += dx * dx;
    shape.max_deviation = std::max(shape.max_deviation, std::fabs(samples[i] - shape.mean));
  }
  shape.slope = sxx > 0 ? sxy / sxx : 0.0;
  shape.excursion = std::fabs(shape.slope) * static_cast<double>(n - 1);
  return shape;
}

bool snia_steady(std::span<const double> samples, std::size_t window, double range_fraction,
                 double excursion_fraction) {
  if (window == 0 || samples.size() < window) return false;
  const SeriesShape shape = describe_series(samples.subspan(samples.size() - window));
  if (shape.mean <= 0) return false;
  return shape.max - shape.min <= range_fraction * shape.mean && shape.excursion <= excursion_fraction * shape.mean;
}

bool slope_within(const SeriesShape& shape, double limit, bool limit_is_fraction) {
  const double bound = limit_is_fraction ? limit * std::fabs(shape.mean) : limit;
  return std::fabs(shape.slope) <= bound;
}

bool deviation_within(const SeriesShape& shape, double limit, bool limit_is_fraction) {
  const double bound = limit_is_fraction ? limit * std::fabs(shape.mean) : limit;
  return shape.max_deviation <= bound;
}

}  // namespace sluice
