// Scaling efficiency of dependent io in a capacity curve (issue 4: do two streams give twice one stream's
// transactions/s, and where do they stop doing so?).
#include <algorithm>

#include "method/capacity.h"

namespace sluice {

std::optional<double> scaling_efficiency(const std::vector<CapacityPoint>& curve, const CapacityPoint& point) {
  // The lowest point: one stream per host (concurrency 1, or the number of hosts under MPI).
  const auto one = std::find_if(curve.begin(), curve.end(), [](const CapacityPoint& p) {
    return p.per_host_concurrency() == 1 && p.transactions_per_s > 0;
  });
  if (one == curve.end() || point.transactions_per_s <= 0 || point.concurrency() == 0) return std::nullopt;
  const double ratio = static_cast<double>(point.concurrency()) / static_cast<double>(one->concurrency());
  return point.transactions_per_s / (ratio * one->transactions_per_s);
}

std::optional<CapacityPoint> scaling_limit(const std::vector<CapacityPoint>& curve) {
  for (const CapacityPoint& p : curve) {
    const std::optional<double> efficiency = scaling_efficiency(curve, p);
    if (efficiency && *efficiency < kScalingFloor) return p;
  }
  return std::nullopt;
}

}  // namespace sluice
