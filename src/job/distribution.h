#pragma once
// Distribution: how random offsets (or a job's files) are drawn: uniform, zipf, pareto, normal, zoned, sequence.
// Used by the workload and target parts of JobSpec.
#include <cstdint>
#include <vector>

#include "common/direction.h"

namespace sluice {

enum class DistributionKind { kRandom, kZipf, kPareto, kNormal, kZoned, kZonedAbs, kSequence };

// One zone of random_distribution=zoned|zoned_abs (fio's zone_split): `access_percent` of the ios of a
// direction fall uniformly in the next `size` of the region (a percentage for zoned, bytes for zoned_abs).
struct AccessZone {
  std::uint32_t access_percent = 0;
  std::uint64_t size = 0;
  bool operator==(const AccessZone&) const = default;
};

struct Distribution {
  DistributionKind kind = DistributionKind::kRandom;
  double parameter = 0.0;  // zipf theta, pareto h, normal sigma (percent of the region)
  // zoned, zoned_abs: the zones per direction, in region order; a direction without zones is uniform.
  PerDirection<std::vector<AccessZone>> zones{};
  // sequence (fio's random_sequence): the block indices each direction's ios visit in turn, 1 to 64 of them.
  std::vector<std::uint32_t> sequence{};
};

}  // namespace sluice
