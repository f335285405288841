#pragma once
// The spread of one metric over repetitions: min, median, max and the coefficient of variation.
#include <cstddef>
#include <vector>

namespace sluice {

struct Spread {
  std::size_t count = 0;
  double min = 0, median = 0, max = 0;
  double mean = 0;
  double cv = 0;  // sample standard deviation / mean (0 with fewer than 2 values or a zero mean)
};

// The spread of `values`; all zeros for an empty list.
Spread spread_of(std::vector<double> values);

}  // namespace sluice
