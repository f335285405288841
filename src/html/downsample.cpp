#include "html/downsample.h"

namespace sluice::html {

std::vector<ChartPoint> downsample_min_max(const std::vector<ChartPoint>& points, std::size_t buckets) {
  if (buckets == 0 || points.size() <= 2 * buckets) return points;
  std::vector<ChartPoint> out;
  out.reserve(2 * buckets);
  const std::size_t n = points.size();
  for (std::size_t b = 0; b < buckets; ++b) {
    const std::size_t begin = b * n / buckets;
    const std::size_t end = (b + 1) * n / buckets;
    if (begin >= end) continue;
    std::size_t lo = begin;
    std::size_t hi = begin;
    for (std::size_t i = begin + 1; i < end; ++i) {
      if (points[i].y < points[lo].y) lo = i;
      if (points[i].y > points[hi].y) hi = i;
    }
    if (lo == hi) {
      out.push_back(points[lo]);
    } else {
      out.push_back(points[std::min(lo, hi)]);
      out.push_back(points[std::max(lo, hi)]);
    }
  }
  return out;
}

}  // namespace sluice::html
