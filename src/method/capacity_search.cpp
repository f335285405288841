// The capacity search proper: a pure function of the measurements (no I/O, no clock), so tests drive it
// with a synthetic device model. find_capacity (capacity.cpp) supplies the real measurements.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>

#include "common/error.h"
#include "method/capacity.h"

namespace sluice {
namespace {

using std::chrono::nanoseconds;

// The search's bookkeeping: the curve so far and the time spent.
class Search {
 public:
  Search(const CapacityRequest& request, const MeasurePoint& measure) : request_(request), measure_(measure) {}

  // Measures concurrency c (as split by the scale). nullopt when the budget or a stop ended the search.
  std::optional<CapacityPoint> measure(std::uint32_t c, std::uint32_t points_left) {
    const nanoseconds remaining = request_.budget - spent_;
    if (remaining < min_point()) {
      result_.budget_exhausted = true;
      return std::nullopt;
    }
    const nanoseconds share = std::max(min_point(), remaining / std::max<std::uint32_t>(points_left, 1));
    const auto [iodepth, numjobs] = split_concurrency(c, request_.scale);
    std::optional<CapacityPoint> point = measure_(iodepth, numjobs, std::min(share, remaining));
    if (!point) {
      result_.interrupted = true;
      return std::nullopt;
    }
    point->hosts = request_.hosts;
    spent_ += std::chrono::duration_cast<nanoseconds>(std::chrono::duration<double>(point->runtime_s));
    point->within_slo =
        static_cast<double>(slo_stat_value(*point, request_.slo_stat)) <= static_cast<double>(request_.slo.count());
    result_.curve.push_back(*point);
    if (point->interrupted) result_.interrupted = true;
    return point;
  }

  CapacityResult finish() {
    std::sort(result_.curve.begin(), result_.curve.end(),
              [](const CapacityPoint& a, const CapacityPoint& b) { return a.concurrency() < b.concurrency(); });
    for (const CapacityPoint& p : result_.curve) {
      if (p.within_slo && (!result_.answer || p.iops > result_.answer->iops)) result_.answer = p;
    }
    result_.knee = find_knee(result_.curve);
    result_.thrashing = find_thrashing(result_.curve);
    result_.elapsed_s = std::chrono::duration<double>(spent_).count();
    if (result_.interrupted) {
      result_.stop_reason = "interrupted";
    } else if (result_.budget_exhausted) {
      result_.stop_reason += result_.stop_reason.empty() ? "time budget spent during the ramp"
                                                         : "; time budget spent during the bisection";
    }
    return std::move(result_);
  }

  void set_reason(std::string reason) { result_.stop_reason = std::move(reason); }
  bool stopped() const { return result_.interrupted || result_.budget_exhausted; }

 private:
  // The shortest useful point: a ramp and a steady-state window plus one sample.
  nanoseconds min_point() const {
    const nanoseconds ramp = request_.ramp_time.count() > 0 ? request_.ramp_time : request_.budget / 40;
    const nanoseconds interval = request_.sample_interval.count() > 0 ? request_.sample_interval : request_.budget / 80;
    return ramp + interval * static_cast<std::int64_t>(request_.steady_window + 1);
  }

  const CapacityRequest& request_;
  const MeasurePoint& measure_;
  CapacityResult result_;
  nanoseconds spent_{0};
};

std::uint32_t log2_ceil(double x) { return x <= 1 ? 0 : static_cast<std::uint32_t>(std::ceil(std::log2(x))); }

// Ramp points still ahead (at most 4 are expected before the limit) plus the bisection steps after them.
std::uint32_t ramp_points_left(std::uint32_t c, std::uint32_t max_c, double precision) {
  const std::uint32_t doublings = log2_ceil(static_cast<double>(max_c) / c) + 1;
  return std::min<std::uint32_t>(doublings, 4) + log2_ceil(1.0 / precision) - 1;
}

struct RampEnd {
  std::uint32_t last_good = 0;  // 0: even concurrency 1 was over the limit
  std::uint32_t first_bad = 0;  // 0: the limit was never exceeded
};

RampEnd ramp(Search& search, const CapacityRequest& request) {
  RampEnd end;
  double best_iops = 0;
  double previous_iops = 0;
  int flat_doublings = 0;
  int drops = 0;
  for (std::uint32_t c = 1; c <= request.max_concurrency; c *= 2) {
    const auto point = search.measure(c, ramp_points_left(c, request.max_concurrency, request.bisection_precision));
    if (!point) return end;
    if (point->interrupted) return end;
    // The search varies one host's concurrency; the reasons name the total (x hosts under MPI).
    const std::uint32_t actual = point->per_host_concurrency();
    const std::uint32_t total = point->concurrency();
    if (!point->within_slo) {
      end.first_bad = actual;
      search.set_reason(fmt::format("latency limit exceeded at concurrency {}", total));
      return end;
    }
    end.last_good = actual;
    // Two drops in a row, so that one noisy point does not end the ramp.
    drops = best_iops > 0 && point->iops < best_iops * (1 - kThrashingLoss) ? drops + 1 : 0;
    if (drops >= 2) {
      search.set_reason(fmt::format("IOPS dropped at concurrency {} and {} (thrashing)", total / 2, total));
      return end;
    }
    flat_doublings = previous_iops > 0 && point->iops < previous_iops * (1 + kPlateauGain) ? flat_doublings + 1 : 0;
    if (flat_doublings >= 2) {
      search.set_reason(fmt::format("IOPS stopped growing by concurrency {}", total));
      return end;
    }
    best_iops = std::max(best_iops, point->iops);
    previous_iops = point->iops;
    if (c > request.max_concurrency / 2) break;
  }
  search.set_reason(request.hosts > 1 ? fmt::format("maximum concurrency {} per host ({} in all) reached",
                                                    request.max_concurrency, request.max_concurrency * request.hosts)
                                      : fmt::format("maximum concurrency {} reached", request.max_concurrency));
  return end;
}

void bisect(Search& search, const CapacityRequest& request, std::uint32_t lo, std::uint32_t hi) {
  auto tolerance = [&] { return std::max(1.0, request.bisection_precision * lo); };
  while (static_cast<double>(hi - lo) > tolerance() && !search.stopped()) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    const auto [iodepth, numjobs] = split_concurrency(mid, request.scale);
    const std::uint32_t actual = iodepth * numjobs;
    if (actual <= lo || actual >= hi) break;  // the scale cannot express a concurrency in between
    const std::uint32_t steps = log2_ceil(static_cast<double>(hi - lo) / tolerance());
    const auto point = search.measure(mid, steps);
    if (!point || point->interrupted) return;
    if (point->within_slo) {
      lo = actual;
    } else {
      hi = actual;
    }
  }
}

}  // namespace

std::pair<std::uint32_t, std::uint32_t> split_concurrency(std::uint32_t concurrency, ConcurrencyScale scale) {
  const std::uint32_t c = std::max<std::uint32_t>(concurrency, 1);
  switch (scale) {
    case ConcurrencyScale::kIodepth:
      return {c, 1};
    case ConcurrencyScale::kNumjobs:
      return {1, c};
    case ConcurrencyScale::kBoth: {
      std::uint32_t jobs = 1;
      while (static_cast<std::uint64_t>(jobs) * 2 * jobs * 2 <= c) jobs *= 2;
      return {c / jobs, jobs};
    }
  }
  return {c, 1};
}

std::optional<CapacityPoint> find_knee(const std::vector<CapacityPoint>& curve) {
  // Kleinrock's power, throughput over delay: it grows while added concurrency adds IOPS at the same latency and
  // falls once it adds only latency, so its peak is where the curve's two asymptotes meet (the closed-loop knee
  // N* = Xmax x R0) even when the measured curve rounds the corner. The selftest's ssd lab (8 servers): 8426
  // IOPS at 8 and 9579 at 16, which a rule of "doubling adds < 10%" put at 16.
  std::size_t best = 0;
  double best_power = -1;
  for (std::size_t i = 0; i < curve.size(); ++i) {
    const double power = curve[i].iops / std::max(curve[i].lat_mean_ns, 1.0);
    if (power > best_power) {
      best_power = power;
      best = i;
    }
  }
  // A peak at the last point is not a knee: more concurrency might still pay.
  if (curve.empty() || best + 1 == curve.size()) return std::nullopt;
  return curve[best];
}

std::optional<CapacityPoint> find_thrashing(const std::vector<CapacityPoint>& curve) {
  double best = 0;
  for (const CapacityPoint& p : curve) {
    if (best > 0 && p.iops < best * (1 - kThrashingLoss)) return p;
    best = std::max(best, p.iops);
  }
  return std::nullopt;
}

CapacityResult search_capacity(const CapacityRequest& request, const MeasurePoint& measure) {
  if (request.slo.count() <= 0) throw UserError("--slo: the latency limit must be greater than 0");
  if (request.budget.count() <= 0) throw UserError("--budget: the time budget must be greater than 0");
  if (request.max_concurrency == 0) throw UserError("the maximum concurrency must be at least 1");
  Search search(request, measure);
  const RampEnd end = ramp(search, request);
  if (end.last_good > 0 && end.first_bad > end.last_good) bisect(search, request, end.last_good, end.first_bad);
  return search.finish();
}

}  // namespace sluice
