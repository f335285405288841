#include "history/spread.h"

#include <algorithm>
#include <cmath>

namespace sluice {

Spread spread_of(std::vector<double> values) {
  Spread s;
  s.count = values.size();
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  s.min = values.front();
  s.max = values.back();
  const std::size_t n = values.size();
  s.median = n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
  double sum = 0;
  for (double v : values) sum += v;
  s.mean = sum / static_cast<double>(n);
  if (n >= 2 && s.mean != 0) {
    double squares = 0;
    for (double v : values) squares += (v - s.mean) * (v - s.mean);
    s.cv = std::sqrt(squares / static_cast<double>(n - 1)) / std::abs(s.mean);
  }
  return s;
}

}  // namespace sluice
