// find_http_capacity: the HTTP measurement behind the shared capacity search.
#include "net/http_capacity.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/error.h"
#include "common/stop_signal.h"
#include "stats/steady_state.h"

namespace sluice {
namespace {

using std::chrono::nanoseconds;
using Clock = std::chrono::steady_clock;

// The same derivation as the storage search: min(250 ms, budget / 80), at least 10 ms.
nanoseconds interval_of(const CapacityRequest& request) {
  nanoseconds interval = request.sample_interval.count() > 0
                             ? request.sample_interval
                             : std::min<nanoseconds>(std::chrono::milliseconds(250), request.budget / 80);
  return std::max<nanoseconds>(interval, std::chrono::milliseconds(10));
}

CapacityPoint summarize(const HttpLoadResult& r, double measured_s, std::uint32_t connections) {
  CapacityPoint p;
  p.iodepth = connections;
  p.numjobs = 1;
  p.iops = measured_s > 0 ? static_cast<double>(r.responses) / measured_s : 0;
  p.lat_mean_ns = r.responses == 0 ? 0 : static_cast<double>(r.latency_sum_ns) / static_cast<double>(r.responses);
  p.lat_p50_ns = r.latency_ns.percentile(50);
  p.lat_p95_ns = r.latency_ns.percentile(95);
  p.lat_p99_ns = r.latency_ns.percentile(99);
  p.lat_p999_ns = r.latency_ns.percentile(99.9);
  p.interrupted = r.interrupted;
  return p;
}

}  // namespace

CapacityResult find_http_capacity(const CapacityRequest& request, const HttpLoadOptions& load) {
  if (request.slo.count() <= 0) throw UserError("--slo must be positive");
  const nanoseconds interval = interval_of(request);
  const std::size_t window = std::max<std::size_t>(request.steady_window, 2);
  auto measure = [&](std::uint32_t iodepth, std::uint32_t numjobs, nanoseconds share) -> std::optional<CapacityPoint> {
    const Clock::time_point start = Clock::now();
    const std::uint32_t connections = iodepth * numjobs;
    HttpLoadOptions o = load;
    o.parallel = connections;
    o.rate = 0;
    o.fetches = 0;
    o.duration = interval;
    const HttpLoadResult ramp = run_http_load(o);  // connections, caches and the server's workers warm up
    if (ramp.interrupted || stop_requested()) return std::nullopt;
    if (ramp.responses == 0) {
      throw UserError(fmt::format("capacity --target=http: no response at {} connections; first error: {}", connections,
                                  ramp.first_errors.empty() ? "none" : ramp.first_errors.front()));
    }
    HttpLoadResult total;
    double measured_s = 0;
    std::vector<double> samples;
    bool steady = false;
    while (!stop_requested()) {
      const HttpLoadResult segment = run_http_load(o);
      samples.push_back(segment.elapsed_s > 0 ? static_cast<double>(segment.responses) / segment.elapsed_s : 0);
      measured_s += segment.elapsed_s;
      total.merge(segment);
      steady = snia_steady(samples, window);
      if (steady || segment.interrupted) break;
      if (Clock::now() - start + interval > share) break;
    }
    if (samples.empty()) return std::nullopt;
    CapacityPoint p = summarize(total, measured_s, connections);
    p.steady = steady;
    p.runtime_s = std::chrono::duration<double>(Clock::now() - start).count();
    if (request.progress) {
      request.progress(fmt::format(
          "capacity http: {} connections: {:.0f} requests/s, mean {:.3f} ms, p99 {:.3f} ms{}{}", connections, p.iops,
          p.lat_mean_ns / 1e6, static_cast<double>(p.lat_p99_ns) / 1e6, steady ? "" : " (not steady)",
          total.error_total() > 0 ? fmt::format(", {} errors", total.error_total()) : ""));
    }
    return p;
  };
  return search_capacity(request, measure);
}

}  // namespace sluice
