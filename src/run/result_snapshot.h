#pragma once
// ResultSnapshot: a running job's result so far (cumulative statistics, runtime up to the snapshot), published
// by its worker every snapshot interval and once more at its end, for the periodic reports of
// --status-interval. The worker copies its result in under a mutex once per interval (never per io); a
// reader copies it out.
#include <algorithm>
#include <cstdint>
#include <mutex>
#include <optional>

#include "stats/result.h"

namespace sluice {

// How long before each report interval ends the workers publish their snapshots (a tenth of it, at most
// 50 ms): the report of an interval that ends with the run (the third of a 3 s run at T=1 s) still comes, as
// fio's do (its timer starts before the jobs: reports at about 0.9, 1.9 and 2.9 s).
constexpr std::uint64_t snapshot_lead_ns(std::uint64_t interval_ns) noexcept {
  return std::min<std::uint64_t>(interval_ns / 10, 50'000'000);
}

class ResultSnapshot {
 public:
  // Replaces the published result (the worker thread).
  void publish(JobResult result) {
    std::lock_guard lock(mutex_);
    result_ = std::move(result);
  }
  // The last published result; nullopt before the first (any thread).
  std::optional<JobResult> latest() const {
    std::lock_guard lock(mutex_);
    return result_;
  }

 private:
  mutable std::mutex mutex_;
  std::optional<JobResult> result_;
};

}  // namespace sluice
