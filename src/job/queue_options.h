#pragma once
// QueueOptions and the types of its fields: a part of JobSpec (job/job_spec.h composes the parts). Include this
// header, not job_spec.h, where only this part is needed.
#include <cstdint>

namespace sluice {

// How many ios are in flight, and how they are submitted and reaped in batches.
struct QueueOptions {
  std::uint32_t iodepth = 1;
  std::uint32_t iodepth_low = 0;  // a full queue drains to this depth before it is refilled; 0 = iodepth
  std::uint32_t iodepth_batch_submit = 1;
  std::uint32_t iodepth_batch_complete_min = 1;
  std::uint32_t iodepth_batch_complete_max = 0;  // 0 = iodepth
  bool serialize_overlap = false;  // an io overlapping one in flight waits for it (fio's serialize_overlap)
};

}  // namespace sluice
