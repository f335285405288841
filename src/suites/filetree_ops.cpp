#include "suites/filetree_ops.h"

namespace sluice {

std::string_view file_op_name(FileOp op) {
  static constexpr std::array<std::string_view, kFileOpCount> kNames = {
      "mkdir", "create", "open", "read", "write", "close", "chmod", "utimens", "unlink", "rmdir", "sync"};
  return kNames[static_cast<std::size_t>(op)];
}

void OpLatency::merge(const OpLatency& other) noexcept {
  histogram.merge(other.histogram);
  sum_ns += other.sum_ns;
  max_ns = other.max_ns > max_ns ? other.max_ns : max_ns;
}

void OpRecorder::merge(const OpRecorder& other) noexcept {
  for (std::size_t i = 0; i < kFileOpCount; ++i) ops_[i].merge(other.ops_[i]);
}

}  // namespace sluice
