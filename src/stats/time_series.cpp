#include "stats/time_series.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace sluice {

namespace {

void add_into(IntervalSample& into, const IntervalSample& from) noexcept {
  into.ops += from.ops;
  into.bytes += from.bytes;
  into.lat_sum_ns += from.lat_sum_ns;
}

// Combining two intervals: counts add, p99 becomes the larger one (an upper bound of the true p99).
void combine(PerDirection<IntervalSample>& into, const PerDirection<IntervalSample>& from) noexcept {
  for (int d = 0; d < kNumDirections; ++d) {
    add_into(into[d], from[d]);
    into[d].lat_p99_ns = std::max(into[d].lat_p99_ns, from[d].lat_p99_ns);
  }
}

}  // namespace

void TimeSeries::append(const PerDirection<IntervalSample>& sample) {
  if (!samples_.empty() && last_fill_ < factor()) {
    combine(samples_.back(), sample);
    ++last_fill_;
    return;
  }
  if (samples_.size() >= kMaxSamples) {
    halve_resolution();
    if (last_fill_ < factor()) {  // odd count: the last sample is now a half-filled pair
      combine(samples_.back(), sample);
      ++last_fill_;
      return;
    }
  }
  samples_.push_back(sample);
  last_fill_ = 1;
}

void TimeSeries::halve_resolution() {
  const std::size_t n = samples_.size();
  const std::uint64_t old_factor = factor();
  std::size_t out = 0;
  for (std::size_t i = 0; i < n; i += 2, ++out) {
    samples_[out] = samples_[i];
    if (i + 1 < n) combine(samples_[out], samples_[i + 1]);
  }
  // The new last sample spans its own base intervals plus, when it had a partner, the partner's fill.
  const bool last_paired = n % 2 == 0;
  last_fill_ = last_paired ? old_factor + last_fill_ : last_fill_;
  samples_.resize(out);
  interval_ns_ *= 2;
}

void TimeSeries::merge(const TimeSeries& other) {
  TimeSeries coarse = other;
  // Intervals that are not power-of-two multiples of each other (different base intervals) are aligned as
  // closely as halving allows; a zero interval is never halved.
  while (coarse.interval_ns_ > 0 && coarse.interval_ns_ * 2 <= interval_ns_) coarse.halve_resolution();
  while (interval_ns_ > 0 && interval_ns_ * 2 <= coarse.interval_ns_) halve_resolution();
  if (coarse.samples_.size() > samples_.size()) {
    samples_.resize(coarse.samples_.size());
    last_fill_ = coarse.last_fill_;
  } else if (coarse.samples_.size() == samples_.size()) {
    last_fill_ = std::max(last_fill_, coarse.last_fill_);
  }
  for (std::size_t i = 0; i < coarse.samples_.size(); ++i) {
    for (int d = 0; d < kNumDirections; ++d) {
      add_into(samples_[i][d], coarse.samples_[i][d]);
      // Side by side, the p99 of the union lies between the two; the maximum is the documented upper bound.
      samples_[i][d].lat_p99_ns = std::max(samples_[i][d].lat_p99_ns, coarse.samples_[i][d].lat_p99_ns);
    }
  }
}

nlohmann::json TimeSeries::to_json() const {
  nlohmann::json j = {{"interval_ns", interval_ns_},
                      {"base_interval_ns", base_interval_ns_},
                      {"last_fill", last_fill_},
                      {"p99_merge", "max"}};
  for (Direction dir : kAllDirections) {
    const int d = index_of(dir);
    nlohmann::json ops = nlohmann::json::array(), bytes = nlohmann::json::array();
    nlohmann::json lat_sum = nlohmann::json::array(), p99 = nlohmann::json::array();
    for (const auto& s : samples_) {
      ops.push_back(s[d].ops);
      bytes.push_back(s[d].bytes);
      lat_sum.push_back(s[d].lat_sum_ns);
      p99.push_back(s[d].lat_p99_ns);
    }
    j[std::string(direction_name(dir))] = {{"ops", std::move(ops)},
                                           {"bytes", std::move(bytes)},
                                           {"lat_sum_ns", std::move(lat_sum)},
                                           {"lat_p99_ns", std::move(p99)}};
  }
  return j;
}

TimeSeries TimeSeries::from_json(const nlohmann::json& j) {
  const auto interval = j.at("interval_ns").get<std::uint64_t>();
  TimeSeries ts(j.value("base_interval_ns", interval));
  ts.interval_ns_ = interval;
  std::size_t n = 0;
  for (Direction dir : kAllDirections) {
    const auto key = std::string(direction_name(dir));
    if (j.contains(key)) n = std::max(n, j.at(key).at("ops").size());
  }
  ts.samples_.resize(n);
  for (Direction dir : kAllDirections) {
    const auto key = std::string(direction_name(dir));
    if (!j.contains(key)) continue;
    const auto& col = j.at(key);
    const int d = index_of(dir);
    for (std::size_t i = 0; i < col.at("ops").size(); ++i) {
      auto& s = ts.samples_[i][d];
      s.ops = col.at("ops").at(i).get<std::uint64_t>();
      s.bytes = col.at("bytes").at(i).get<std::uint64_t>();
      s.lat_sum_ns = col.at("lat_sum_ns").at(i).get<std::uint64_t>();
      s.lat_p99_ns = col.at("lat_p99_ns").at(i).get<std::uint64_t>();
    }
  }
  ts.last_fill_ = j.value("last_fill", n ? ts.factor() : std::uint64_t{0});
  return ts;
}

}  // namespace sluice
