// fio options sluice does not implement yet. They are listed so that a job using them is refused by name
// with a reason, never silently run differently from fio.
#include "job/option_builders.h"

namespace sluice::detail {
namespace {

// fio 3.33 verifies trims only in rw=trimwrite jobs (a write job with trim_percentage aborts in its
// fio_ro_check assertion); sluice's verification does not cover trim workloads yet.
constexpr const char* kTrimVerifyReason = "verification of trimmed blocks (fio's trim_* options) is not implemented";


struct Unsupported {
  const char* name;
  const char* alias;  // nullptr when none
  const char* reason;
};

constexpr Unsupported kUnsupported[] = {
    {"trim_percentage", nullptr, kTrimVerifyReason},
    {"trim_verify_zero", nullptr, kTrimVerifyReason},
    {"trim_backlog", nullptr, kTrimVerifyReason},
    {"trim_backlog_batch", nullptr, kTrimVerifyReason},
    {"ioscheduler", nullptr, "sluice changes kernel knobs only through its knob trials"},
    {"zonecapacity", nullptr, "an option of zonemode=zbd (zoned block devices), which is not implemented"},
    {"read_beyond_wp", nullptr, "an option of zonemode=zbd (zoned block devices), which is not implemented"},
    {"max_open_zones", nullptr, "an option of zonemode=zbd (zoned block devices), which is not implemented"},
    {"job_max_open_zones", nullptr, "an option of zonemode=zbd (zoned block devices), which is not implemented"},
    {"ignore_zone_limits", nullptr, "an option of zonemode=zbd (zoned block devices), which is not implemented"},
    {"zone_reset_threshold", nullptr, "an option of zonemode=zbd (zoned block devices), which is not implemented"},
    {"zone_reset_frequency", nullptr, "an option of zonemode=zbd (zoned block devices), which is not implemented"},
    {"uid", nullptr, "sluice does not switch users"},
    {"gid", nullptr, "sluice does not switch users"},
    {"cgroup", nullptr, "cgroups are not implemented"},
    {"cgroup_weight", nullptr, "cgroups are not implemented"},
    {"cgroup_nodelete", nullptr, "cgroups are not implemented"},
    {"lockfile", nullptr, "file locking is not implemented"},
    {"opendir", nullptr, "not implemented"},
    {"atomic", nullptr, "not implemented"},
    {"allow_mounted_write", nullptr, "use --allow-destructive"},
    {"unlink_each_loop", nullptr, "not implemented"},
    {"mem", "iomem", "buffers are always allocated by sluice"},
    {"iomem_align", "mem_align", "buffers are always page aligned"},
    {"hugepage-size", nullptr, "buffers are always allocated by sluice"},
    {"disable_bw_measurement", "disable_bw", "sluice's timing is cheap enough to keep on"},
    {"block_error_percentiles", nullptr, "not implemented"},
    {"profile", nullptr, "not implemented"},
    {"uncached", nullptr, "io_uring/libaio engine options are not implemented"},
    {"nowait", nullptr, "io_uring/libaio engine options are not implemented"},
    {"userspace_reap", nullptr, "io_uring/libaio engine options are not implemented"},
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
