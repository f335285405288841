#include "observe/vm_dirty_settings.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "support/temp_dir.h"

namespace sluice {
namespace {

TEST(VmDirtySettings, ReadsFromProcRootAndKeepsDefaultsForMissingFiles) {
  testing::TempDir dir;
  std::filesystem::create_directories(dir.file("proc/sys/vm"));
  std::ofstream(dir.file("proc/sys/vm/dirty_ratio")) << "30\n";
  std::ofstream(dir.file("proc/sys/vm/dirty_bytes")) << "0\n";
  std::ofstream(dir.file("proc/sys/vm/dirty_expire_centisecs")) << "1500\n";
  const VmDirtySettings vm = read_vm_dirty_settings(dir.file("proc"));
  EXPECT_EQ(vm.dirty_ratio, 30u);
  EXPECT_EQ(vm.dirty_expire_centisecs, 1500u);
  EXPECT_EQ(vm.dirty_background_ratio, 10u);  // missing file: default
}

}  // namespace
}  // namespace sluice
