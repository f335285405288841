#pragma once
// PacingOptions and the types of its fields: a part of JobSpec (job/job_spec.h composes the parts). Include this
// header, not job_spec.h, where only this part is needed.
#include <chrono>
#include <cstdint>

#include "common/direction.h"

namespace sluice {

enum class RateProcess { kLinear, kPoisson };

// How fast ios are issued: rate limits and minimums, think time, open-loop arrivals.
struct PacingOptions {
  PerDirection<std::uint64_t> rate = {0, 0, 0};  // bytes per second
  PerDirection<std::uint64_t> rate_iops = {0, 0, 0};
  RateProcess rate_process = RateProcess::kLinear;
  std::chrono::nanoseconds thinktime{0};
  // Set by the plan for cpuio, not an option: after each io, think this many times the io's own time (fio's
  // cpuio sets its think time from the measured cycle, cpuchunks x (100 - cpuload) / cpuload).
  double think_per_busy = 0;
  std::uint32_t thinktime_blocks = 1;
  bool rate_ignore_thinktime = false;            // a rate's schedule moves on by each pause instead of catching up
  bool thinktime_on_issue = false;               // thinktime_blocks_type=issue: count issued ios (else completed ones)
  std::chrono::nanoseconds thinktime_iotime{0};  // think after this much I/O time too (0: only by blocks)
  bool thinktime_spin_set = false;
  std::chrono::nanoseconds thinktime_spin{0};
  PerDirection<std::uint64_t> rate_min = {0, 0, 0};              // bytes/s below which the job fails
  std::chrono::nanoseconds rate_cycle{std::chrono::seconds(1)};  // the window rate_min / rate_iops_min average over
  PerDirection<std::uint64_t> rate_iops_min = {0, 0, 0};
  bool open_loop = false;       // arrivals follow the rate schedule whatever earlier ios do
  bool submit_offload = false;  // fio's io_submit_mode=offload: with a rate, sluice's open loop
  // Open-loop arrivals: open_loop=1, or fio's io_submit_mode=offload with a rate (fio offloads submission so
  // that its rate does not follow completions; sluice's open loop is that, without fio's limit at iodepth).
  bool open_loop_active() const noexcept {
    if (open_loop) return true;
    if (!submit_offload) return false;
    for (int i = 0; i < kNumDirections; ++i) {
      if (rate[i] != 0 || rate_iops[i] != 0) return true;
    }
    return false;
  }
};

}  // namespace sluice
