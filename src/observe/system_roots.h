#pragma once
// Where observe/ reads the kernel's /proc and /sys. Tests point these at synthetic trees.
#include <string>

namespace sluice {

struct SystemRoots {
  std::string proc_root = "/proc";
  std::string sys_root = "/sys";
};

}  // namespace sluice
