#pragma once
// Maps data values to pixel positions on a linear or logarithmic axis, and chooses the axis ticks.
#include <string>
#include <vector>

namespace sluice::html {

struct Tick {
  double value = 0;
  std::string label;
};

class Scale {
 public:
  // Maps [lo, hi] onto [pixel_lo, pixel_hi]. A log scale needs lo > 0 (smaller values are clamped to lo);
  // an empty domain (lo == hi) is widened so every value maps to a finite position.
  Scale(double lo, double hi, double pixel_lo, double pixel_hi, bool log);

  // The pixel position of `value`, clamped to the domain.
  double map(double value) const noexcept;

  double lo() const noexcept { return lo_; }
  double hi() const noexcept { return hi_; }
  bool log() const noexcept { return log_; }

 private:
  double lo_;
  double hi_;
  double pixel_lo_;
  double pixel_hi_;
  bool log_;
};

// About `count` round ticks (1, 2 or 5 times a power of ten) covering [lo, hi] of a linear axis.
std::vector<Tick> linear_ticks(double lo, double hi, int count);

// Ticks at the powers of ten within [lo, hi] of a log axis (with 2 and 5 between them when there are few).
std::vector<Tick> log_ticks(double lo, double hi);

// The upper end of a linear axis starting at 0 that holds `max` with a little headroom: a round value.
double nice_ceiling(double max);

}  // namespace sluice::html
