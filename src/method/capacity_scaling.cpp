// Scaling efficiency of dependent io in a capacity curve (issue 4: do two streams give twice one stream's
// transactions/s, and where do they stop doing so?).
#include <algorithm>

#include "method/capacity.h"

namespace sluice {

std::optional<double> scaling_efficiency(const std::vector<CapacityPoint>& curve, const CapacityPoint& point) {
  const auto one = std::find_if(curve.begin(), curve.end(), [](const CapacityPoint& p) {
    return p.concurrency() == 1 && p.transactions_per_s > 0;
  });
  if (one == curve.end() || point.transactions_per_s <= 0 || point.concurrency() == 0) return std::nullopt;
  return point.transactions_per_s / (static_cast<double>(point.concurrency()) * one->transactions_per_s);
}

std::optional<CapacityPoint> scaling_limit(const std::vector<CapacityPoint>& curve) {
  for (const CapacityPoint& p : curve) {
    const std::optional<double> efficiency = scaling_efficiency(curve, p);
    if (efficiency && *efficiency < kScalingFloor) return p;
  }
  return std::nullopt;
}

}  // namespace sluice
