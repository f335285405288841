#pragma once
// What differs between two results before their numbers are compared: the machine as sluice recorded it
// under "sluice.environment" (kernel, CPU, memory, vm.dirty_*, each target's filesystem and mount options,
// each device's model, scheduler, wbt and queue settings), sluice's version, and the job options.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sluice {

struct Difference {
  std::string what;       // "kernel", "vm.dirty_bytes", "device vda scheduler", "job j: iodepth"
  std::string old_value;  // "-" when that side does not have it
  std::string new_value;
};

// The recorded environment of both documents, field by field, where the values differ. Fields one side
// lacks are listed only when that side recorded an environment at all (fio's JSON records none).
std::vector<Difference> environment_differences(const nlohmann::json& old_doc, const nlohmann::json& new_doc);

// True when `doc` carries sluice's environment record.
bool has_environment(const nlohmann::json& doc);

// The job options (each job's "job options", matched by job name, and fio's "global options") that differ.
// Options that only shape the output (output, output-format, write_*_log, log_avg_msec, ...) are ignored, and
// so is a flag (time_based) only sluice lists when one side is fio's (fio leaves flags out of "job options").
std::vector<Difference> job_option_differences(const nlohmann::json& old_doc, const nlohmann::json& new_doc);

}  // namespace sluice
