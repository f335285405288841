#include "lab/mdc_wait.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sluice {
namespace {

constexpr double kNegligible = 1e-16;
constexpr double kConverged = 1e-13;
constexpr int kMaxSteps = 200000;

// Poisson(mean) probabilities until the remaining mass is negligible.
std::vector<double> poisson_terms(double mean) {
  std::vector<double> p = {std::exp(-mean)};
  double mass = p[0];
  for (std::size_t k = 1; 1.0 - mass > kNegligible || static_cast<double>(k) < mean; ++k) {
    p.push_back(p.back() * mean / static_cast<double>(k));
    mass += p.back();
    if (p.back() < kNegligible && static_cast<double>(k) > mean) break;
  }
  return p;
}

// P(Poisson(mean) <= n).
double poisson_cdf(double mean, long n) {
  if (n < 0) return 0;
  double term = std::exp(-mean);
  double sum = term;
  for (long i = 1; i <= n; ++i) {
    term *= mean / static_cast<double>(i);
    sum += term;
    if (term<kNegligible&& static_cast<double>(i)> mean) break;
  }
  return std::min(sum, 1.0);
}

// One step of the chain N' = max(N - c, 0) + A over `size` states (the last absorbs what would pass it).
std::vector<double> chain_step(const std::vector<double>& p, const std::vector<double>& arrivals, std::uint32_t c) {
  std::vector<double> next(p.size(), 0.0);
  for (std::size_t j = 0; j < p.size(); ++j) {
    if (p[j] == 0) continue;
    const std::size_t base = j > c ? j - c : 0;
    for (std::size_t k = 0; k < arrivals.size(); ++k) next[std::min(base + k, p.size() - 1)] += p[j] * arrivals[k];
  }
  return next;
}

}  // namespace

std::vector<double> mdc_number_present(double offered_load, std::uint32_t servers) {
  const std::vector<double> arrivals = poisson_terms(offered_load);
  const double load = offered_load / servers;
  // Room for the queue: its tail decays geometrically, slower as the load nears 1.
  std::size_t size = servers + arrivals.size() + static_cast<std::size_t>(std::ceil(60.0 * servers / (1.0 - load)));
  std::vector<double> p(size, 0.0);
  p[0] = 1.0;
  for (int step = 0; step < kMaxSteps; ++step) {
    std::vector<double> next = chain_step(p, arrivals, servers);
    double change = 0;
    for (std::size_t j = 0; j < size; ++j) change += std::abs(next[j] - p[j]);
    p = std::move(next);
    if (change < kConverged) break;
  }
  while (p.size() > 1 && p.back() < kNegligible) p.pop_back();
  return p;
}

namespace {

// P(wait <= x) from the law of the number present.
double wait_cdf(const std::vector<double>& present, double arrival_rate, double d, std::uint32_t servers, double x) {
  const double periods = std::floor(x / d);
  const double u = x - periods * d;
  const long limit = static_cast<long>(periods + 1) * servers - 1;  // older customers left, at most
  const double before = arrival_rate * (d - u);
  double sum = 0;
  for (std::size_t j = 0; j < present.size(); ++j) {
    const long waiting = j > servers ? static_cast<long>(j - servers) : 0;
    if (waiting > limit) break;
    sum += present[j] * poisson_cdf(before, limit - waiting);
  }
  return std::min(sum, 1.0);
}

}  // namespace

double mdc_wait_cdf(double arrival_rate, Seconds service, std::uint32_t servers, Seconds x) {
  const std::vector<double> present = mdc_number_present(arrival_rate * service.count(), servers);
  return wait_cdf(present, arrival_rate, service.count(), servers, x.count());
}

Seconds mdc_wait_quantile(double arrival_rate, Seconds service, std::uint32_t servers, double q) {
  if (arrival_rate * service.count() >= servers) return Seconds(std::numeric_limits<double>::infinity());
  const double d = service.count();
  const std::vector<double> present = mdc_number_present(arrival_rate * d, servers);
  const auto cdf = [&](double x) { return wait_cdf(present, arrival_rate, d, servers, x); };
  if (cdf(0) >= q) return Seconds(0);
  double low = 0;
  double high = d;
  while (cdf(high) < q) high *= 2;
  while (high - low > 1e-9 * d) {
    const double mid = (low + high) / 2;
    (cdf(mid) >= q ? high : low) = mid;
  }
  return Seconds(high);
}

}  // namespace sluice
