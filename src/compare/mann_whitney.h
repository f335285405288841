#pragma once
// The two-sided Mann-Whitney U test (Wilcoxon rank-sum) on two samples of per-repetition values. It asks
// whether one sample tends to be larger than the other without assuming a distribution, which suits
// benchmark repetitions (skewed, a few outliers). Results equal scipy.stats.mannwhitneyu(x, y,
// alternative="two-sided") with method "exact" or "asymptotic" (see tests/compare/mann_whitney_test.cpp).
#include <cstddef>
#include <vector>

namespace sluice {

struct MannWhitney {
  double u = 0;        // U of the first sample: pairs (x, y) with x > y, ties counting one half
  double p = 1;        // two-sided p-value
  bool exact = false;  // from the exact distribution of U (no ties, small samples), else the normal approximation
};

// Samples with no ties and at most this many values together use the exact distribution.
inline constexpr std::size_t kMannWhitneyExactMax = 40;

// The test of `x` against `y`. Exact when neither sample has ties with any value and
// x.size() + y.size() <= kMannWhitneyExactMax; otherwise the normal approximation with continuity and tie
// correction. Both samples must be non-empty (p = 1 otherwise).
MannWhitney mann_whitney_u(const std::vector<double>& x, const std::vector<double>& y);

// The smallest two-sided p-value the exact test can give for samples of sizes m and n: 2 / C(m+n, m).
// With 3 and 3 repetitions it is 0.1, so no difference can be significant at alpha = 0.05.
double mann_whitney_min_p(std::size_t m, std::size_t n);

}  // namespace sluice
