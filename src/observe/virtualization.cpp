#include "observe/virtualization.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace sluice {
namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) return "";
  std::ostringstream s;
  s << in.rdbuf();
  std::string t = s.str();
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.pop_back();
  return t;
}

bool exists(const std::string& path) { return std::ifstream(path).good(); }

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// The CPUID hypervisor vendor (leaf 0x40000000), mapped to systemd-detect-virt's names; "" when the
// hypervisor bit (leaf 1, ECX bit 31) is clear.
std::string cpuid_hypervisor() {
#if defined(__x86_64__) || defined(__i386__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid(1, &a, &b, &c, &d) == 0 || (c & (1u << 31)) == 0) return "";
  __cpuid(0x40000000, a, b, c, d);
  char vendor[13] = {};
  std::memcpy(vendor, &b, 4);
  std::memcpy(vendor + 4, &c, 4);
  std::memcpy(vendor + 8, &d, 4);
  const std::string v(vendor);
  static const std::vector<std::pair<std::string, std::string>> kVendors = {
      {"KVMKVMKVM", "kvm"},       {"XenVMMXenVMM", "xen"},  {"VMwareVMware", "vmware"}, {"Microsoft Hv", "microsoft"},
      {"TCGTCGTCGTCG", "qemu"},   {"bhyve bhyve", "bhyve"}, {"ACRNACRNACRN", "acrn"},   {"QNXQVMBSQG", "qnx"},
      {"VBoxVBoxVBox", "oracle"}, {"Linux KVM Hv", "kvm"}};
  for (const auto& [id, name] : kVendors) {
    if (v.rfind(id, 0) == 0) return name;
  }
  return "vm-other";
#else
  return "";
#endif
}

// DMI strings as systemd-detect-virt matches them.
std::string dmi_vendor(const std::string& sys_root) {
  static const std::vector<std::pair<std::string, std::string>> kDmi = {
      {"kvm", "kvm"},       {"amazon ec2", "amazon"}, {"qemu", "qemu"},
      {"vmware", "vmware"}, {"innotek", "oracle"},    {"virtualbox", "oracle"},
      {"xen", "xen"},       {"bochs", "bochs"},       {"parallels", "parallels"},
      {"bhyve", "bhyve"},   {"google", "google"},     {"microsoft corporation", "microsoft"}};
  for (const char* file : {"product_name", "sys_vendor", "board_vendor", "bios_vendor", "product_version"}) {
    const std::string text = lower(read_text(sys_root + "/class/dmi/id/" + file));
    if (text.empty()) continue;
    for (const auto& [needle, name] : kDmi) {
      // Hyper-V and physical Surface machines share "Microsoft Corporation": only product "Virtual Machine".
      if (name == "microsoft" && lower(read_text(sys_root + "/class/dmi/id/product_name")) != "virtual machine")
        continue;
      if (text.find(needle) != std::string::npos) return name;
    }
  }
  return "";
}

std::string container_kind(const std::string& proc_root, const std::string& root) {
  if (exists(root + "/.dockerenv")) return "docker";
  if (exists(root + "/run/.containerenv")) return "podman";
  const std::string cgroup = read_text(proc_root + "/1/cgroup");
  for (const char* name : {"docker", "kubepods", "lxc", "containerd"}) {
    if (cgroup.find(name) != std::string::npos) return name;
  }
  return "";
}

}  // namespace

std::string Virtualization::describe() const {
  if (container.empty() && vm.empty()) return "none";
  if (container.empty()) return "vm (" + vm + ")";
  if (vm.empty()) return "container (" + container + ")";
  return "container (" + container + ") in a vm (" + vm + ")";
}

Virtualization detect_virtualization(const std::string& proc_root, const std::string& sys_root, const std::string& root,
                                     bool use_cpuid) {
  Virtualization v{"none", "", use_cpuid ? "cpuid, /sys/hypervisor, dmi" : "/sys/hypervisor, dmi", "", ""};
  if (const std::string hv = use_cpuid ? cpuid_hypervisor() : ""; !hv.empty()) {
    v = {"vm", hv, "cpuid", hv, ""};
  } else if (const std::string xen = read_text(sys_root + "/hypervisor/type"); !xen.empty()) {
    v = {"vm", xen, "/sys/hypervisor/type", xen, ""};
  } else if (const std::string dmi = dmi_vendor(sys_root); !dmi.empty()) {
    v = {"vm", dmi, "dmi", dmi, ""};
  }
  if (const std::string c = container_kind(proc_root, root); !c.empty()) {
    v.kind = "container";
    v.what = c;
    v.container = c;
    v.evidence = v.vm.empty() ? "container markers" : "container markers; " + v.evidence;
  }
  return v;
}

}  // namespace sluice
