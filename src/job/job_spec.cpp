#include "job/job_spec.h"

#include <algorithm>
#include <cerrno>

namespace sluice {

std::uint64_t WorkloadOptions::min_block_size() const noexcept {
  std::uint64_t smallest = UINT64_MAX;
  for (Direction d : kAllDirections) smallest = std::min(smallest, min_block_size(d));
  return smallest;
}

std::uint64_t WorkloadOptions::min_block_size(Direction d) const noexcept {
  const int i = index_of(d);
  if (bssplit[i].empty()) return bsrange[i].min ? bsrange[i].min : bs[i];
  std::uint64_t smallest = UINT64_MAX;
  for (const BlockSizeSplitEntry& e : bssplit[i]) smallest = std::min(smallest, e.size);
  return smallest;
}

ErrorClass error_class_of(bool is_read, int error) noexcept {
  if (error == EILSEQ) return ErrorClass::kVerify;
  return is_read ? ErrorClass::kRead : ErrorClass::kWrite;
}

bool error_is_non_fatal(const ErrorOptions& errors, ErrorClass c, int error) noexcept {
  const auto index = static_cast<std::size_t>(c);
  if ((errors.continue_on_error & (1u << index)) == 0) return false;
  const std::vector<int>& listed = errors.ignore_errors[index];
  if (listed.empty()) return error == EIO || error == EILSEQ;
  return std::find(listed.begin(), listed.end(), error) != listed.end();
}

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
