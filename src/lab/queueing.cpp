#include "lab/queueing.h"

#include <algorithm>
#include <limits>

namespace sluice {

double closed_loop_iops(const ClosedLoopBounds& bounds, std::uint32_t depth) {
  return std::min(static_cast<double>(depth) / bounds.zero_load_latency.count(), bounds.max_iops);
}

Seconds closed_loop_latency(const ClosedLoopBounds& bounds, std::uint32_t depth) {
  return Seconds(static_cast<double>(depth) / closed_loop_iops(bounds, depth));
}

double knee_depth(const ClosedLoopBounds& bounds) { return bounds.max_iops * bounds.zero_load_latency.count(); }

double erlang_c(std::uint32_t servers, double offered_load) {
  // Erlang B by its stable recursion, then C = c B / (c - a (1 - B)).
  double b = 1.0;
  for (std::uint32_t k = 1; k <= servers; ++k) b = offered_load * b / (k + offered_load * b);
  const double c = servers;
  return c * b / (c - offered_load * (1.0 - b));
}

Seconds mmc_wait(double arrival_rate, Seconds service, std::uint32_t servers) {
  const double load = arrival_rate * service.count();
  if (load >= servers) return Seconds(std::numeric_limits<double>::infinity());
  if (load <= 0) return Seconds(0);
  return Seconds(erlang_c(servers, load) * service.count() / (servers - load));
}

Seconds mgc_wait(double arrival_rate, Seconds service, std::uint32_t servers, double scv) {
  return mmc_wait(arrival_rate, service, servers) * ((1.0 + scv) / 2.0);
}

}  // namespace sluice
