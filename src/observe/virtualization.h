#pragma once
// Whether this machine is virtualized, and by what: what `systemd-detect-virt --vm` answers for VMs, read from
// the places it reads (the CPUID hypervisor bit and vendor, /sys/hypervisor/type, DMI vendor strings) and
// for containers from /proc/1/environ-free markers (/.dockerenv, /run/.containerenv, /proc/1/cgroup).
// Both layers are kept: a container usually runs inside a VM, and the VM is what costs I/O and CPU time.
#include <string>

namespace sluice {

struct Virtualization {
  std::string kind;       // the innermost layer: "none", "vm", "container"
  std::string what;       // that layer's name: "kvm", "xen", "vmware", "microsoft", "qemu", "docker", ...; "" when none
  std::string evidence;   // where it was seen ("cpuid", "/sys/hypervisor/type", "dmi", "container markers", ...)
  std::string vm;         // the hypervisor beneath, also under a container ("bhyve", "kvm", ...); "" when none seen
  std::string container;  // the container runtime ("docker", "podman", "kubepods", ...); "" when none

  // "none", "vm (kvm)", "container (docker)" or "container (docker) in a vm (kvm)".
  std::string describe() const;
};

// Detects virtualization; `proc_root`/`sys_root`/`root` are parameters so tests use synthetic trees.
// `use_cpuid` is false in tests (the CPUID answer is the real machine's). Never throws.
Virtualization detect_virtualization(const std::string& proc_root = "/proc", const std::string& sys_root = "/sys",
                                     const std::string& root = "/", bool use_cpuid = true);

}  // namespace sluice
