#pragma once
// Change points of a series (results over time): E-Divisive means (Matteson & James 2014, with the
// exponent 1 and the right end fixed at the segment's end, as MongoDB's signal processing and Apache Otava
// use it), each candidate judged by a permutation test, found by recursive bisection. Pure functions; the
// permutations and the bootstrap draw from common/rng.h with seeds derived from `seed`, so the same series
// and options give the same answer everywhere (tests/history/edivisive_reference.py does the same draws).
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace sluice {

struct ChangePointOptions {
  std::size_t permutations = 199;  // per candidate; p = (1 + permutations at least as divergent) / (1 + this)
  double alpha = 0.01;             // a candidate with p above this ends the bisection of its segment
  std::size_t min_segment = 3;     // the fewest points either side of a change (below 2 counts as 2)
  // A candidate whose segment means either side differ by less than this fraction of the mean before is no
  // change (and ends the bisection of its segment) whatever its p-value: 0.05 ignores shifts under 5%.
  double min_relative_shift = 0;
  std::uint64_t seed = 1;
  std::size_t bootstrap = 2000;  // resamples for the confidence interval of each shift
  double confidence = 0.95;      // of that interval
};

struct ChangePoint {
  std::size_t index = 0;  // 1-based position of the first point after the shift
  double statistic = 0;   // the divergence q at the split, within the segment it was found in
  double p_value = 1;
  double before = 0;     // the mean of the segment before (from the previous change point or the start)
  double after = 0;      // and after (to the next change point or the end)
  double shift_low = 0;  // bootstrap percentile interval of after - before at `confidence`
  double shift_high = 0;
};

// q(tau) of Matteson & James for every split of `segment` that leaves at least `min_segment` points either
// side: element i is the split before position min_segment + i (0-based). Empty when no split fits.
std::vector<double> divergence_profile(std::span<const double> segment, std::size_t min_segment);

// The significant change points of `series`, in order of position.
std::vector<ChangePoint> find_change_points(const std::vector<double>& series, const ChangePointOptions& options);

}  // namespace sluice
