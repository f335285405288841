#include "job/job_spec.h"

namespace sluice {

std::string_view rw_mode_name(RwMode mode) noexcept {
  switch (mode) {
    case RwMode::kRead:
      return "read";
    case RwMode::kWrite:
      return "write";
    case RwMode::kRandRead:
      return "randread";
    case RwMode::kRandWrite:
      return "randwrite";
    case RwMode::kReadWrite:
      return "rw";
    case RwMode::kRandRW:
      return "randrw";
    case RwMode::kTrim:
      return "trim";
    case RwMode::kRandTrim:
      return "randtrim";
    case RwMode::kRandRmw:
      return "randrmw";
    case RwMode::kTrimWrite:
      return "trimwrite";
    case RwMode::kRandTrimWrite:
      return "randtrimwrite";
  }
  return "?";
}

}  // namespace sluice
