#pragma once
// LatencyStat: the moments and the histogram of one latency kind (slat, clat or lat) of one direction.
#include <cstdint>

#include "stats/latency_histogram.h"
#include "stats/moments.h"

namespace sluice {

struct LatencyStat {
  Moments moments;
  LatencyHistogram histogram;

  void record(std::uint64_t ns) noexcept {
    moments.add(static_cast<double>(ns));
    histogram.record(ns);
  }
  void merge(const LatencyStat& other) noexcept {
    moments.merge(other.moments);
    histogram.merge(other.histogram);
  }
  std::uint64_t count() const noexcept { return moments.count(); }
};

}  // namespace sluice
