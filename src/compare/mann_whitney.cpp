#include "compare/mann_whitney.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>

namespace sluice {
namespace {

struct Ranked {
  double rank_sum_x = 0;
  double tie_term = 0;  // sum over groups of equal values of t^3 - t
};

Ranked rank(const std::vector<double>& x, const std::vector<double>& y) {
  std::vector<std::pair<double, bool>> all;  // value, from x
  all.reserve(x.size() + y.size());
  for (double v : x) all.emplace_back(v, true);
  for (double v : y) all.emplace_back(v, false);
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  Ranked out;
  for (std::size_t i = 0; i < all.size();) {
    std::size_t j = i;
    while (j < all.size() && all[j].first == all[i].first) ++j;
    const double t = static_cast<double>(j - i);
    const double mean_rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2.0;
    for (std::size_t k = i; k < j; ++k) {
      if (all[k].second) out.rank_sum_x += mean_rank;
    }
    out.tie_term += t * t * t - t;
    i = j;
  }
  return out;
}

// Number of arrangements giving each U in 0..m*n: the coefficients of the Gaussian binomial [m+n choose m],
// built as the product over i of (1 - q^(n+i)) / (1 - q^i). Exact in 64 bits for m + n <= 40.
std::vector<std::int64_t> u_frequencies(std::size_t m, std::size_t n) {
  const std::size_t top = m * n;
  std::vector<std::int64_t> c(top + 1, 0);
  c[0] = 1;
  for (std::size_t i = 1; i <= m; ++i) {
    for (std::size_t k = top; k >= n + i && k <= top; --k) c[k] -= c[k - n - i];
    for (std::size_t k = i; k <= top; ++k) c[k] += c[k - i];
  }
  return c;
}

double exact_p(double u_max, std::size_t m, std::size_t n) {
  const std::vector<std::int64_t> freq = u_frequencies(m, n);
  const double total = static_cast<double>(std::accumulate(freq.begin(), freq.end(), std::int64_t{0}));
  std::int64_t at_least = 0;
  for (std::size_t k = static_cast<std::size_t>(std::llround(u_max)); k < freq.size(); ++k) at_least += freq[k];
  return std::min(1.0, 2.0 * static_cast<double>(at_least) / total);
}

double asymptotic_p(double u_max, std::size_t m, std::size_t n, double tie_term) {
  const double n1 = static_cast<double>(m);
  const double n2 = static_cast<double>(n);
  const double total = n1 + n2;
  const double variance = n1 * n2 / 12.0 * ((total + 1.0) - tie_term / (total * (total - 1.0)));
  if (variance <= 0) return 1.0;  // every value equal: nothing to tell apart
  const double z = (u_max - n1 * n2 / 2.0 - 0.5) / std::sqrt(variance);
  return std::min(1.0, std::erfc(z / std::sqrt(2.0)));  // 2 * P(Z > z)
}

}  // namespace

MannWhitney mann_whitney_u(const std::vector<double>& x, const std::vector<double>& y) {
  MannWhitney out;
  if (x.empty() || y.empty()) return out;
  const std::size_t m = x.size();
  const std::size_t n = y.size();
  const Ranked ranked = rank(x, y);
  out.u = ranked.rank_sum_x - static_cast<double>(m * (m + 1)) / 2.0;
  const double u_max = std::max(out.u, static_cast<double>(m * n) - out.u);
  out.exact = ranked.tie_term == 0 && m + n <= kMannWhitneyExactMax;
  out.p = out.exact ? exact_p(u_max, m, n) : asymptotic_p(u_max, m, n, ranked.tie_term);
  return out;
}

double mann_whitney_min_p(std::size_t m, std::size_t n) {
  double arrangements = 1;  // C(m+n, m), in floating point: only compared with alpha
  for (std::size_t i = 1; i <= m; ++i)
    arrangements = arrangements * static_cast<double>(n + i) / static_cast<double>(i);
  return std::min(1.0, 2.0 / arrangements);
}

}  // namespace sluice
