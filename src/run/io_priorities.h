#pragma once
// IoPriorities: fio's cmdprio_percentage and cmdprio_bssplit (libaio, io_uring). Decides the priority each
// read or write is issued with, and names the priorities whose latency each direction keeps apart (fio's
// clat_prio: index 0 is the job's own priority, then every cmdprio value in the order the options give them).
// Threads: owned by one worker. pick() does not allocate.
#include <cstdint>
#include <vector>

#include "common/direction.h"
#include "common/rng.h"
#include "job/placement_options.h"
#include "job/workload_options.h"

namespace sluice {

struct IoPriority {
  std::uint16_t value = 0;  // the kernel's ioprio: class << 13 | level; 0 = none
  std::uint8_t index = 0;   // into values(direction): which latency statistics the io adds to
};

class IoPriorities {
 public:
  // The job's cmdprio options (validated) and the directions its workload issues; seed: the clone's random
  // stream for the draws.
  IoPriorities(const PlacementOptions& placement, const WorkloadOptions& workload, std::uint64_t seed);

  // The priority of one io of `length` bytes: a cmdprio one with the options' chance, else the job's own.
  IoPriority pick(Direction d, std::uint64_t length) noexcept {
    const int i = index_of(d);
    if (i > 1 || rules_[i].empty()) return {default_value_, 0};
    const SizeRule* rule = nullptr;
    for (const SizeRule& r : rules_[i]) {
      if (r.size == 0 || r.size == length) {
        rule = &r;
        break;
      }
    }
    if (rule == nullptr) return {default_value_, 0};
    const auto draw = static_cast<std::uint32_t>(rng_.below(100));
    for (const Choice& c : rule->choices) {
      if (draw < c.below) return c.priority;
    }
    return {default_value_, 0};
  }

  // The priority values direction d keeps latency for (index 0: the job's own); empty when no io of the
  // direction gets another priority.
  const std::vector<std::uint16_t>& values(Direction d) const noexcept { return values_[index_of(d)]; }
  std::uint16_t default_value() const noexcept { return default_value_; }

 private:
  struct Choice {
    std::uint32_t below = 0;  // cumulative percentage: a draw under it takes this priority
    IoPriority priority;
  };
  struct SizeRule {
    std::uint64_t size = 0;  // 0: ios of every size (cmdprio_percentage)
    std::vector<Choice> choices;
  };
  std::uint8_t index_for(int direction, std::uint16_t value);

  std::uint16_t default_value_ = 0;
  PerDirection<std::vector<SizeRule>> rules_{};
  PerDirection<std::vector<std::uint16_t>> values_{};
  Rng rng_;
};

}  // namespace sluice
