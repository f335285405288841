#pragma once
// Thinning long series for drawing without losing their peaks: a 24-hour run sampled every second has
// 86,400 points per series; a chart 700 pixels wide shows no more than ~2 points per pixel column.
#include <cstddef>
#include <vector>

namespace sluice::html {

struct ChartPoint {
  double x = 0;
  double y = 0;
};

// `points` (ordered by x) cut into `buckets` runs of equal length; each run contributes its minimum and
// maximum, in their original order (one point when they coincide). Returns `points` unchanged when it has
// at most 2 * buckets points. The global minimum and maximum always survive.
std::vector<ChartPoint> downsample_min_max(const std::vector<ChartPoint>& points, std::size_t buckets);

}  // namespace sluice::html
