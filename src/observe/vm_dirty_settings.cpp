#include "observe/vm_dirty_settings.h"

#include <fstream>
#include <optional>

namespace sluice {
namespace {

std::optional<std::uint64_t> read_number(const std::string& path) {
  std::ifstream in(path);
  std::uint64_t v = 0;
  if (in >> v) return v;
  return std::nullopt;
}

}  // namespace

VmDirtySettings read_vm_dirty_settings(const std::string& proc_root) {
  VmDirtySettings vm;
  const std::string dir = proc_root + "/sys/vm/";
  if (auto v = read_number(dir + "dirty_ratio")) vm.dirty_ratio = *v;
  if (auto v = read_number(dir + "dirty_background_ratio")) vm.dirty_background_ratio = *v;
  if (auto v = read_number(dir + "dirty_bytes")) vm.dirty_bytes = *v;
  if (auto v = read_number(dir + "dirty_background_bytes")) vm.dirty_background_bytes = *v;
  if (auto v = read_number(dir + "dirty_expire_centisecs")) vm.dirty_expire_centisecs = *v;
  return vm;
}

}  // namespace sluice
