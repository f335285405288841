// fio options sluice does not implement yet. They are listed so that a job using them is refused by name
// with a reason, never silently run differently from fio.
#include "job/option_builders.h"

namespace sluice::detail {
namespace {

// fio moves each job's process into the cgroup; sluice's jobs are threads of one process, and cgroup v2's io
// controller (a domain controller) places whole processes, so a job cannot have a cgroup of its own.
constexpr const char* kCgroupReason =
    "cgroups place whole processes, and sluice runs every job as a thread of one process";

// fio keeps a write pointer per zone, in memory for a regular file (its zbd.c emulates sequential-write zones
// there) and from the device for a zoned one; sluice has neither yet.
constexpr const char* kZbdReason =
    "an option of zonemode=zbd (zone write pointers, of zoned devices or emulated on files), which is not "
    "implemented";

struct Unsupported {
  const char* name;
  const char* alias;  // nullptr when none
  const char* reason;
};

constexpr Unsupported kUnsupported[] = {
    {"zonecapacity", nullptr, kZbdReason},
    {"read_beyond_wp", nullptr, kZbdReason},
    {"max_open_zones", nullptr, kZbdReason},
    {"job_max_open_zones", nullptr, kZbdReason},
    {"ignore_zone_limits", nullptr, kZbdReason},
    {"zone_reset_threshold", nullptr, kZbdReason},
    {"zone_reset_frequency", nullptr, kZbdReason},
    {"cgroup", nullptr, kCgroupReason},
    {"cgroup_weight", nullptr, kCgroupReason},
    {"cgroup_nodelete", nullptr, kCgroupReason},
    {"block_error_percentiles", nullptr, "fio's per-block error histogram of trim workloads (mtd) is not implemented"},
};

}  // namespace

void add_unsupported_options(std::vector<OptionDef>& table) {
  for (const Unsupported& entry : kUnsupported) {
    std::vector<std::string> aliases;
    if (entry.alias != nullptr) aliases.emplace_back(entry.alias);
    table.push_back(unsupported_option(entry.name, "unsupported",
                                       "fio option not supported by sluice yet: " + std::string(entry.reason) + ".",
                                       entry.reason, std::move(aliases)));
  }
}

}  // namespace sluice::detail
