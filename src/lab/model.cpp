#include "lab/model.h"

namespace sluice {

const char* write_cache_name(WriteCacheMode mode) noexcept {
  switch (mode) {
    case WriteCacheMode::kNone:
      return "none";
    case WriteCacheMode::kWriteThrough:
      return "write-through";
    case WriteCacheMode::kWriteBack:
      return "write-back";
  }
  return "?";
}

const char* jitter_name(JitterKind kind) noexcept {
  switch (kind) {
    case JitterKind::kNone:
      return "none";
    case JitterKind::kUniform:
      return "uniform";
    case JitterKind::kExponential:
      return "exponential";
  }
  return "?";
}

}  // namespace sluice
