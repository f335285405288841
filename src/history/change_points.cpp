#include "history/change_points.h"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>

#include "common/rng.h"

namespace sluice {
namespace {

// A permuted maximum this close to the observed one counts as at least as large: the two are then equal
// but for rounding, and counting them keeps the test conservative (and the reference's decisions the same).
constexpr double kTieTolerance = 1e-9;

double max_of(const std::vector<double>& values) {
  return values.empty() ? 0.0 : *std::max_element(values.begin(), values.end());
}

double mean_of(std::span<const double> values) {
  double sum = 0;
  for (double v : values) sum += v;
  return values.empty() ? 0.0 : sum / static_cast<double>(values.size());
}

struct Split {
  std::size_t position;  // 0-based, in the whole series: the first point after the change
  double statistic;
  double p_value;
};

// The permutation test of Matteson & James: how often a shuffled segment diverges as much somewhere.
double permutation_p_value(std::span<const double> segment, double observed, std::size_t min_segment,
                           const ChangePointOptions& options, std::uint64_t segment_seed) {
  Rng rng(segment_seed);
  std::vector<double> shuffled(segment.begin(), segment.end());
  std::size_t as_large = 0;
  for (std::size_t r = 0; r < options.permutations; ++r) {
    for (std::size_t i = shuffled.size() - 1; i > 0; --i) std::swap(shuffled[i], shuffled[rng.below(i + 1)]);
    const double permuted = max_of(divergence_profile(shuffled, min_segment));
    if (permuted >= observed - kTieTolerance * std::max(1.0, std::abs(observed))) ++as_large;
  }
  return static_cast<double>(as_large + 1) / static_cast<double>(options.permutations + 1);
}

void bisect(const std::vector<double>& series, std::size_t start, std::size_t end, const ChangePointOptions& options,
            std::size_t min_segment, std::vector<Split>& out) {
  if (end - start < 2 * min_segment) return;
  const std::span<const double> segment(series.data() + start, end - start);
  const std::vector<double> profile = divergence_profile(segment, min_segment);
  const auto best = std::max_element(profile.begin(), profile.end());  // the first of equal maxima
  const std::size_t position = start + min_segment + static_cast<std::size_t>(best - profile.begin());
  const double before = mean_of(segment.first(position - start));
  if (std::abs(mean_of(segment.subspan(position - start)) - before) < options.min_relative_shift * std::abs(before)) {
    return;
  }
  const std::uint64_t seed = options.seed ^ mix64((static_cast<std::uint64_t>(start) << 32) | end);
  const double p = permutation_p_value(segment, *best, min_segment, options, seed);
  if (p > options.alpha) return;
  out.push_back({position, *best, p});
  bisect(series, start, position, options, min_segment, out);
  bisect(series, position, end, options, min_segment, out);
}

// The percentile bootstrap of mean(after) - mean(before), each segment resampled on its own.
std::pair<double, double> shift_interval(std::span<const double> before, std::span<const double> after,
                                         std::size_t position, const ChangePointOptions& options) {
  if (options.bootstrap == 0) return {0.0, 0.0};
  Rng rng(options.seed ^ mix64(~static_cast<std::uint64_t>(position)));
  std::vector<double> shifts;
  shifts.reserve(options.bootstrap);
  auto resampled_mean = [&rng](std::span<const double> values) {
    double sum = 0;
    for (std::size_t i = 0; i < values.size(); ++i) sum += values[rng.below(values.size())];
    return sum / static_cast<double>(values.size());
  };
  for (std::size_t b = 0; b < options.bootstrap; ++b) {
    const double mean_before = resampled_mean(before);
    shifts.push_back(resampled_mean(after) - mean_before);
  }
  std::sort(shifts.begin(), shifts.end());
  const double count = static_cast<double>(options.bootstrap);
  const auto low = static_cast<std::size_t>(std::floor((1.0 - options.confidence) / 2.0 * count));
  const auto high = static_cast<std::size_t>(std::ceil((1.0 + options.confidence) / 2.0 * count));
  return {shifts[std::min(low, shifts.size() - 1)], shifts[std::clamp<std::size_t>(high, 1, shifts.size()) - 1]};
}

}  // namespace

std::vector<double> divergence_profile(std::span<const double> segment, std::size_t min_segment) {
  const std::size_t n = segment.size();
  min_segment = std::max<std::size_t>(min_segment, 2);
  if (n < 2 * min_segment) return {};
  // Row sums of |x_p - x_i| over the points before p and after p: each split's three sums follow from them.
  std::vector<double> before_row(n, 0.0), after_row(n, 0.0);
  for (std::size_t p = 0; p < n; ++p) {
    for (std::size_t i = 0; i < p; ++i) before_row[p] += std::abs(segment[p] - segment[i]);
    for (std::size_t k = p + 1; k < n; ++k) after_row[p] += std::abs(segment[p] - segment[k]);
  }
  double within_left = 0, between = 0, within_right = 0;
  for (double v : after_row) within_right += v;
  std::vector<double> profile;
  profile.reserve(n - 2 * min_segment + 1);
  for (std::size_t tau = 0; tau + min_segment <= n; ++tau) {
    if (tau >= min_segment) {
      const double m = static_cast<double>(tau);
      const double k = static_cast<double>(n - tau);
      const double divergence =
          2.0 * between / (m * k) - 2.0 * within_left / (m * (m - 1.0)) - 2.0 * within_right / (k * (k - 1.0));
      profile.push_back(m * k / (m + k) * divergence);
    }
    within_left += before_row[tau];
    between += after_row[tau] - before_row[tau];
    within_right -= after_row[tau];
  }
  return profile;
}

std::vector<ChangePoint> find_change_points(const std::vector<double>& series, const ChangePointOptions& options) {
  const std::size_t min_segment = std::max<std::size_t>(options.min_segment, 2);
  std::vector<Split> splits;
  bisect(series, 0, series.size(), options, min_segment, splits);
  std::sort(splits.begin(), splits.end(), [](const Split& a, const Split& b) { return a.position < b.position; });
  std::vector<ChangePoint> out;
  for (std::size_t i = 0; i < splits.size(); ++i) {
    const std::size_t from = i == 0 ? 0 : splits[i - 1].position;
    const std::size_t at = splits[i].position;
    const std::size_t to = i + 1 < splits.size() ? splits[i + 1].position : series.size();
    const std::span<const double> before(series.data() + from, at - from);
    const std::span<const double> after(series.data() + at, to - at);
    ChangePoint c;
    c.index = at + 1;
    c.statistic = splits[i].statistic;
    c.p_value = splits[i].p_value;
    c.before = mean_of(before);
    c.after = mean_of(after);
    std::tie(c.shift_low, c.shift_high) = shift_interval(before, after, at, options);
    out.push_back(c);
  }
  return out;
}

}  // namespace sluice
