#include "run/steady_state_monitor.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "stats/steady_state.h"

namespace sluice {
namespace {

const char* criterion_name(SteadyStateCriterion c) noexcept {
  switch (c) {
    case SteadyStateCriterion::kIops:
      return "iops";
    case SteadyStateCriterion::kIopsSlope:
      return "iops_slope";
    case SteadyStateCriterion::kBw:
      return "bw";
    case SteadyStateCriterion::kBwSlope:
      return "bw_slope";
    case SteadyStateCriterion::kLat:
      return "lat";
    case SteadyStateCriterion::kLatSlope:
      return "lat_slope";
    case SteadyStateCriterion::kNone:
      break;
  }
  return "none";
}

}  // namespace

SteadyStateMonitor::SteadyStateMonitor(const SteadyStateOptions& options, std::uint64_t start_ns)
    : criterion_(options.ss_criterion),
      limit_(options.ss_limit),
      percent_(options.ss_limit_is_percent),
      duration_ns_(static_cast<std::uint64_t>(options.ss_duration.count())),
      interval_ns_(std::max<std::uint64_t>(static_cast<std::uint64_t>(options.ss_interval.count()), 1'000'000)),
      window_(std::max<std::size_t>(1, static_cast<std::size_t>(duration_ns_ / interval_ns_))),
      next_ns_(start_ns + static_cast<std::uint64_t>(options.ss_ramp.count())) {}

bool SteadyStateMonitor::update(std::uint64_t now_ns, const Totals& totals) {
  if (now_ns < next_ns_ || attained_ || criterion_ == SteadyStateCriterion::kNone || duration_ns_ == 0) {
    return attained_;
  }
  if (!primed_) {  // the first boundary (end of ss_ramp) only sets the baseline
    primed_ = true;
  } else {
    const double seconds = static_cast<double>(interval_ns_) / 1e9;
    iops_.push_back(static_cast<double>(totals.ios - last_.ios) / seconds);
    bw_.push_back(static_cast<double>(totals.bytes - last_.bytes) / seconds);
    const std::uint64_t samples = totals.clat_samples - last_.clat_samples;
    // fio keeps each interval's mean latency as a whole number of nanoseconds.
    const double lat_sum = totals.clat_sum_ns - last_.clat_sum_ns;
    lat_.push_back(samples == 0 ? 0.0 : std::floor(lat_sum / static_cast<double>(samples)));
    if (iops_.size() > window_) {
      iops_.pop_front();
      bw_.pop_front();
      lat_.pop_front();
    }
    if (iops_.size() == window_) evaluate();
  }
  last_ = totals;
  while (next_ns_ <= now_ns) next_ns_ += interval_ns_;
  return attained_;
}

void SteadyStateMonitor::evaluate() {
  const bool iops = criterion_ == SteadyStateCriterion::kIops || criterion_ == SteadyStateCriterion::kIopsSlope;
  const bool slope = criterion_ == SteadyStateCriterion::kIopsSlope || criterion_ == SteadyStateCriterion::kBwSlope ||
                     criterion_ == SteadyStateCriterion::kLatSlope;
  const std::deque<double>& series = iops ? iops_ : lat() ? lat_ : bw_;
  const std::vector<double> samples(series.begin(), series.end());
  SeriesShape shape = describe_series(samples);
  // The series' slope is per sample step; fio's is per second.
  shape.slope /= static_cast<double>(interval_ns_) / 1e9;
  const double fraction = percent_ ? limit_ / 100.0 : limit_;
  if (slope) {
    attained_ = slope_within(shape, fraction, percent_);
    slope_ = shape.slope;
    max_deviation_ = 0;
    criterion_value_ =
        percent_ ? (shape.mean != 0 ? std::fabs(shape.slope) / shape.mean * 100.0 : 0.0) : std::fabs(shape.slope);
  } else {
    attained_ = deviation_within(shape, fraction, percent_);
    slope_ = 0;
    max_deviation_ = shape.max_deviation;
    criterion_value_ =
        percent_ ? (shape.mean != 0 ? shape.max_deviation / shape.mean * 100.0 : 0.0) : shape.max_deviation;
  }
}

nlohmann::json SteadyStateMonitor::to_json() const {
  // As fio, the lists hold the whole window, the intervals not sampled yet as 0, and the means are over the
  // whole window (fio's steadystate_data_mean).
  const auto listed = [this](const std::deque<double>& samples, nlohmann::json& list) {
    double sum = 0;
    for (double v : samples) {
      const auto whole = static_cast<std::uint64_t>(std::llround(v));
      list.push_back(whole);
      sum += static_cast<double>(whole);
    }
    for (std::size_t i = samples.size(); i < window_; ++i) list.push_back(std::uint64_t{0});
    return static_cast<std::uint64_t>(sum / static_cast<double>(window_));
  };
  nlohmann::json data = nlohmann::json::object();
  nlohmann::json iops_list = nlohmann::json::array();
  nlohmann::json bw_list = nlohmann::json::array();
  data["iops_mean"] = listed(iops_, iops_list);
  data["bw_mean"] = listed(bw_, bw_list);
  if (lat()) {  // fio 3.42
    nlohmann::json lat_list = nlohmann::json::array();
    data["lat_mean"] = listed(lat_, lat_list);
    data["lat_ns"] = std::move(lat_list);
  }
  data["iops"] = std::move(iops_list);
  data["bw"] = std::move(bw_list);
  nlohmann::json out = nlohmann::json::object();
  out["ss"] = fmt::format("{}:{:.6f}{}", criterion_name(criterion_), limit_, percent_ ? "%" : "");
  out["duration"] = duration_ns_ / 1'000'000'000ull;
  out["attained"] = attained_ ? 1 : 0;
  out["criterion"] = fmt::format("{:.6f}{}", criterion_value_, percent_ ? "%" : "");
  out["max_deviation"] = max_deviation_;
  out["slope"] = slope_;
  out["data"] = std::move(data);
  return out;  // keys sorted here; the JSON reporter writes them in fio's order
}

}  // namespace sluice
