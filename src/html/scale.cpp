#include "html/scale.h"

#include <algorithm>
#include <cmath>

#include "html/svg_text.h"

namespace sluice::html {
namespace {

double round_step(double raw) {
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  const double fraction = raw / power;
  if (fraction <= 1) return power;
  if (fraction <= 2) return 2 * power;
  if (fraction <= 5) return 5 * power;
  return 10 * power;
}

}  // namespace

Scale::Scale(double lo, double hi, double pixel_lo, double pixel_hi, bool log)
    : lo_(lo), hi_(hi), pixel_lo_(pixel_lo), pixel_hi_(pixel_hi), log_(log) {
  if (log_) {
    if (!(lo_ > 0)) lo_ = hi_ > 0 ? hi_ / 10 : 1;
    if (!(hi_ > lo_)) hi_ = lo_ * 10;
  } else if (!(hi_ > lo_)) {
    hi_ = lo_ + 1;
  }
}

double Scale::map(double value) const noexcept {
  if (!std::isfinite(value)) value = lo_;
  value = std::clamp(value, lo_, hi_);
  const double t = log_ ? std::log(value / lo_) / std::log(hi_ / lo_) : (value - lo_) / (hi_ - lo_);
  return pixel_lo_ + t * (pixel_hi_ - pixel_lo_);
}

std::vector<Tick> linear_ticks(double lo, double hi, int count) {
  std::vector<Tick> ticks;
  if (!(hi > lo) || count < 1) return {{lo, short_number(lo)}};
  const double step = round_step((hi - lo) / count);
  const long first = static_cast<long>(std::ceil(lo / step - 1e-9));
  for (long i = first; static_cast<double>(i) * step <= hi * (1 + 1e-9) + 1e-12; ++i) {
    const double v = static_cast<double>(i) * step;
    ticks.push_back({v, short_number(v)});
  }
  return ticks;
}

std::vector<Tick> log_ticks(double lo, double hi) {
  std::vector<Tick> ticks;
  if (!(lo > 0) || !(hi > lo)) return ticks;
  const int first = static_cast<int>(std::floor(std::log10(lo)));
  const int last = static_cast<int>(std::ceil(std::log10(hi)));
  const bool sparse = last - first <= 2;
  for (int e = first; e <= last; ++e) {
    for (double m : sparse ? std::vector<double>{1, 2, 5} : std::vector<double>{1}) {
      const double v = m * std::pow(10.0, e);
      if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) ticks.push_back({v, short_number(v)});
    }
  }
  return ticks;
}

double nice_ceiling(double max) {
  if (!(max > 0) || !std::isfinite(max)) return 1;
  const double step = round_step(max / 5);
  return std::ceil(max * 1.05 / step) * step;
}

}  // namespace sluice::html
