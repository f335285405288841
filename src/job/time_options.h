#pragma once
// TimeOptions and the types of its fields: a part of JobSpec (job/job_spec.h composes the parts). Include this
// header, not job_spec.h, where only this part is needed.
#include <chrono>
#include <cstdint>

namespace sluice {

// When the job starts and ends: start delay, ramp, runtime, loops, and the io amount that ends it.
struct TimeOptions {
  std::chrono::nanoseconds startdelay{0};
  std::chrono::nanoseconds ramp_time{0};
  std::uint64_t ramp_size = 0;  // bytes of I/O (the group's with group_reporting) before measuring; 0 = none
  std::chrono::nanoseconds runtime{0};
  bool time_based = false;
  std::uint32_t loops = 1;
  std::uint64_t io_size = 0;     // bytes of I/O to do; 0 = size
  std::uint64_t number_ios = 0;  // stop after this many ios; 0 = no limit
};

}  // namespace sluice
