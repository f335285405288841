// detect_virtualization on synthetic /proc and /sys trees.
#include "observe/virtualization.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "support/temp_dir.h"

namespace sluice {
namespace {

void write(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path) << text;
}

TEST(Virtualization, ReadsDmiHypervisorAndContainerMarkers) {
  testing::TempDir tmp;
  const std::string proc = tmp.file("proc"), sys = tmp.file("sys"), root = tmp.file("root");
  std::filesystem::create_directories(root);
  EXPECT_EQ(detect_virtualization(proc, sys, root, false).kind, "none");
  write(sys + "/class/dmi/id/sys_vendor", "QEMU\n");
  Virtualization v = detect_virtualization(proc, sys, root, false);
  EXPECT_EQ(v.kind, "vm");
  EXPECT_EQ(v.what, "qemu");
  write(sys + "/hypervisor/type", "xen\n");
  EXPECT_EQ(detect_virtualization(proc, sys, root, false).what, "xen");
  write(proc + "/1/cgroup", "0::/kubepods/besteffort/pod1\n");
  v = detect_virtualization(proc, sys, root, false);
  EXPECT_EQ(v.kind, "container");
  EXPECT_EQ(v.what, "kubepods");
}

// A container inside a VM names both: the VM is what the I/O and CPU pass through.
TEST(Virtualization, AContainerInAVmNamesBothLayers) {
  testing::TempDir tmp;
  const std::string proc = tmp.file("proc"), sys = tmp.file("sys"), root = tmp.file("root");
  write(root + "/.dockerenv", "");
  Virtualization v = detect_virtualization(proc, sys, root, false);
  EXPECT_EQ(v.kind, "container");
  EXPECT_EQ(v.container, "docker");
  EXPECT_EQ(v.vm, "");
  EXPECT_EQ(v.describe(), "container (docker)");
  write(sys + "/class/dmi/id/sys_vendor", "Amazon EC2\n");
  v = detect_virtualization(proc, sys, root, false);
  EXPECT_EQ(v.kind, "container");
  EXPECT_EQ(v.what, "docker");
  EXPECT_EQ(v.vm, "amazon");
  EXPECT_EQ(v.evidence, "container markers; dmi");
  EXPECT_EQ(v.describe(), "container (docker) in a vm (amazon)");
  std::filesystem::remove(root + "/.dockerenv");
  EXPECT_EQ(detect_virtualization(proc, sys, root, false).describe(), "vm (amazon)");
  EXPECT_EQ(Virtualization{}.describe(), "none");
}

}  // namespace
}  // namespace sluice
