#pragma once
// Environment snapshot recorded in every result (sluice.environment): host, kernel, CPU, memory, and for each
// target path its filesystem and mount options and its device's queue settings; the vm.dirty_* knobs.
// proc_root / sys_root are parameters so tests use synthetic trees.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sluice {

nlohmann::json capture_environment(const std::vector<std::string>& target_paths, const std::string& proc_root = "/proc",
                                   const std::string& sys_root = "/sys");

// One line for the normal output: "host x, Linux 6.1, 2 CPUs (model), 24 GiB RAM; /tmp/f on ext4 (vda, mq-deadline)".
std::string environment_summary(const nlohmann::json& environment);

}  // namespace sluice
