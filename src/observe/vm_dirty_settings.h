#pragma once
// The kernel's writeback thresholds (vm.dirty_*), as the interference explanation needs them.
#include <cstdint>
#include <string>

namespace sluice {

struct VmDirtySettings {
  std::uint64_t dirty_ratio = 20;
  std::uint64_t dirty_background_ratio = 10;
  std::uint64_t dirty_bytes = 0;
  std::uint64_t dirty_background_bytes = 0;
  std::uint64_t dirty_expire_centisecs = 3000;
};

// Reads <proc_root>/sys/vm/dirty_*; fields that cannot be read keep their defaults.
VmDirtySettings read_vm_dirty_settings(const std::string& proc_root = "/proc");

}  // namespace sluice
