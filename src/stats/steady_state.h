#pragma once
// Steady-state tests on a series of per-interval samples (IOPS, bandwidth, latency), shared by
// `sluice capacity` (is this point measured long enough?), `sluice precondition --until-steady` (SNIA's
// rule over rounds) and fio's steadystate / ss= option. Pure functions, no I/O.
#include <cstddef>
#include <span>

namespace sluice {

struct SeriesShape {
  double mean = 0;
  double min = 0;
  double max = 0;
  double slope = 0;          // least-squares slope, in sample units per sample step
  double excursion = 0;      // |slope| * (n - 1): how far the fitted line moves across the window
  double max_deviation = 0;  // largest |sample - mean|
};

// Shape of the samples; all zero for an empty span.
SeriesShape describe_series(std::span<const double> samples);

// SNIA PTS steady state over the last `window` samples: (max - min) <= range_fraction * mean and the fitted
// line's excursion <= excursion_fraction * mean. False when fewer than `window` samples or a zero mean.
bool snia_steady(std::span<const double> samples, std::size_t window = 5, double range_fraction = 0.20,
                 double excursion_fraction = 0.10);

// fio's criteria over a whole window. limit is a fraction of the mean when limit_is_fraction
// ("ss=iops:10%" -> 0.10), else an absolute value in sample units (per sample step for slopes).
bool slope_within(const SeriesShape& shape, double limit, bool limit_is_fraction);
bool deviation_within(const SeriesShape& shape, double limit, bool limit_is_fraction);

}  // namespace sluice
