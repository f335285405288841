#include "run/io_priorities.h"

#include <algorithm>

namespace sluice {
namespace {

constexpr int kClassShift = 13;
constexpr std::uint32_t kRealtimeClass = 1;

// fio's cmdprio_class default is the realtime class; the level defaults to 0.
std::uint16_t cmdprio_value(const PlacementOptions& placement, int direction) {
  const std::uint32_t io_class =
      placement.cmdprio_class[direction] != 0 ? placement.cmdprio_class[direction] : kRealtimeClass;
  return static_cast<std::uint16_t>((io_class << kClassShift) | placement.cmdprio_level[direction]);
}

bool direction_used(const WorkloadOptions& workload, int direction) {
  return direction == 0 ? workload.does_reads() : workload.does_writes();
}

}  // namespace

IoPriorities::IoPriorities(const PlacementOptions& placement, const WorkloadOptions& workload, std::uint64_t seed)
    : default_value_(placement.default_ioprio()), rng_(seed) {
  for (int i = 0; i < 2; ++i) {
    if (!direction_used(workload, i)) continue;
    if (placement.cmdprio_percentage[i] != 0) {
      SizeRule rule;
      const std::uint16_t value = cmdprio_value(placement, i);
      rule.choices.push_back({placement.cmdprio_percentage[i], {value, index_for(i, value)}});
      rules_[i].push_back(std::move(rule));
      continue;
    }
    // cmdprio_bssplit: the entries are sorted by size; one rule per size, its entries' shares cumulated.
    for (const CmdprioSplitEntry& entry : placement.cmdprio_bssplit[i]) {
      if (rules_[i].empty() || rules_[i].back().size != entry.size) rules_[i].push_back(SizeRule{entry.size, {}});
      SizeRule& rule = rules_[i].back();
      const std::uint32_t below = (rule.choices.empty() ? 0 : rule.choices.back().below) + entry.percent;
      const auto value = entry.ioprio >= 0 ? static_cast<std::uint16_t>(entry.ioprio) : cmdprio_value(placement, i);
      rule.choices.push_back({below, {value, index_for(i, value)}});
    }
  }
}

// The statistics index of `value` in the direction's list, added on first use (fio's assign_clat_prio_index).
std::uint8_t IoPriorities::index_for(int direction, std::uint16_t value) {
  std::vector<std::uint16_t>& list = values_[direction];
  if (list.empty()) list.push_back(default_value_);
  const auto found = std::find(list.begin(), list.end(), value);
  if (found != list.end()) return static_cast<std::uint8_t>(found - list.begin());
  list.push_back(value);
  return static_cast<std::uint8_t>(list.size() - 1);
}

}  // namespace sluice
