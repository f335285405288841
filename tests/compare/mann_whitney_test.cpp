#include "compare/mann_whitney.h"

#include <gtest/gtest.h>

namespace sluice {
namespace {

// The reference values were computed once, independently, with SciPy 1.10.1 (Debian's python3-scipy):
//   from scipy.stats import mannwhitneyu
//   r = mannwhitneyu(x, y, alternative="two-sided", method="exact" | "asymptotic")
//   print(r.statistic, "%.12g" % r.pvalue)
// "asymptotic" is SciPy's normal approximation with continuity and tie correction (use_continuity=True).
struct Reference {
  const char* name;
  std::vector<double> x;
  std::vector<double> y;
  bool exact;
  double u;
  double p;
};

std::vector<double> large_x() {
  std::vector<double> x;
  for (int i = 0; i < 60; i += 2) x.push_back(i);
  x.push_back(0.5);
  return x;
}

std::vector<double> large_y() {
  std::vector<double> y;
  for (int i = 0; i < 60; i += 2) y.push_back(i + 1.3);
  return y;
}

const std::vector<Reference>& references() {
  static const std::vector<Reference> kReferences = {
      {"exact_separated", {1.1, 2.2, 3.3, 4.4}, {5.5, 6.6, 7.7, 8.8}, true, 0.0, 0.0285714285714},
      {"exact_overlap", {10, 12, 15, 11, 14}, {13, 16, 18, 17, 19, 20}, true, 2.0, 0.017316017316},
      {"exact_interleaved", {1, 3, 5, 7, 9}, {2, 4, 6, 8, 10, 12, 14}, true, 10.0, 0.267676767677},
      {"exact_3v3", {1, 2, 3}, {4, 5, 6}, true, 0.0, 0.1},
      {"ties_asymptotic", {1, 2, 2, 3, 4, 5}, {2, 3, 3, 6, 7, 8, 8}, false, 9.0, 0.0962020408864},
      {"ties_all_equal_but_one", {5, 5, 5, 5}, {5, 5, 5, 6}, false, 6.0, 0.453254704754},
      {"large_no_ties", large_x(), large_y(), false, 435.0, 0.670418122982},
  };
  return kReferences;
}

TEST(MannWhitney, EqualsScipyReferenceValues) {
  for (const Reference& r : references()) {
    SCOPED_TRACE(r.name);
    const MannWhitney got = mann_whitney_u(r.x, r.y);
    EXPECT_EQ(got.exact, r.exact);
    EXPECT_DOUBLE_EQ(got.u, r.u);
    EXPECT_NEAR(got.p, r.p, 1e-9);
  }
}

TEST(MannWhitney, IsSymmetricInItsSamples) {
  for (const Reference& r : references()) {
    SCOPED_TRACE(r.name);
    const MannWhitney forward = mann_whitney_u(r.x, r.y);
    const MannWhitney backward = mann_whitney_u(r.y, r.x);
    EXPECT_NEAR(forward.p, backward.p, 1e-12);
    EXPECT_DOUBLE_EQ(forward.u + backward.u, static_cast<double>(r.x.size() * r.y.size()));
  }
}

TEST(MannWhitney, IdenticalSamplesGivePOne) {
  EXPECT_DOUBLE_EQ(mann_whitney_u({3, 3, 3}, {3, 3, 3}).p, 1.0);
  EXPECT_DOUBLE_EQ(mann_whitney_u({}, {1, 2}).p, 1.0);
}

TEST(MannWhitney, SmallestPossiblePValue) {
  EXPECT_NEAR(mann_whitney_min_p(3, 3), 0.1, 1e-12);         // 2 / C(6,3)
  EXPECT_NEAR(mann_whitney_min_p(4, 4), 2.0 / 70.0, 1e-12);  // 2 / C(8,4)
  EXPECT_NEAR(mann_whitney_min_p(5, 3), 2.0 / 56.0, 1e-12);
  EXPECT_DOUBLE_EQ(mann_whitney_min_p(1, 1), 1.0);
}

}  // namespace
}  // namespace sluice
