#include "job/run_overrides.h"

#include <algorithm>

#include "common/error.h"
#include "job/option_table.h"
#include "job/units.h"

namespace sluice {
namespace {

void cap_size(JobSpec& job, std::uint64_t cap) {
  if (job.target.size.percent > 0.0 || job.target.size.bytes == 0 || job.target.size.bytes > cap) {
    job.target.size.percent = 0.0;
    job.target.size.bytes = cap;
  }
  if (job.target.filesize > cap) job.target.filesize = cap;
  if (job.time.io_size > cap) job.time.io_size = cap;
  if (job.time.ramp_size > cap) job.time.ramp_size = cap;
  if (job.target.offset.percent <= 0.0 && job.target.offset.bytes > cap) job.target.offset.bytes = 0;
  if (job.target.offset_increment > cap) job.target.offset_increment = cap;
}

void cap_runtime(JobSpec& job, std::chrono::nanoseconds cap) {
  if (job.time.runtime.count() == 0 || job.time.runtime > cap) job.time.runtime = cap;
  job.time.ramp_time = std::min(job.time.ramp_time, cap);
  job.time.startdelay = std::min(job.time.startdelay, cap);
  job.steady_state.ss_ramp = std::min(job.steady_state.ss_ramp, cap);
  if (job.steady_state.ss_duration > cap) {
    job.steady_state.ss_duration = cap;
    job.steady_state.ss_interval = std::min(job.steady_state.ss_interval, cap);
  }
  job.pacing.thinktime = std::min(job.pacing.thinktime, cap);
}

}  // namespace

bool parse_run_override(const std::string& name, const std::string& value, RunOverrides& out) {
  if (name == "override") {
    const std::size_t eq = value.find('=');
    if (value.empty() || eq == 0) throw UserError("--override=" + value + ": use --override=OPTION=VALUE");
    const std::string option = value.substr(0, eq);
    if (find_option(option) == nullptr) {
      const std::string nearest = nearest_option(option);
      throw UserError("--override=" + value + ": unknown option '" + option + "'" +
                      (nearest.empty() ? "" : "; did you mean '" + nearest + "'?"));
    }
    out.options.emplace_back(option, eq == std::string::npos ? std::string() : value.substr(eq + 1));
    return true;
  }
  if (name == "cap-size") {
    const auto size = parse_size(value);
    if (!size || *size == 0) throw UserError("--cap-size=" + value + ": not a positive size; e.g. 1m");
    out.cap_size = *size;
    return true;
  }
  if (name == "cap-runtime") {
    const auto time = parse_duration(value, std::chrono::seconds(1));
    if (!time || time->count() <= 0) throw UserError("--cap-runtime=" + value + ": not a positive duration");
    out.cap_runtime = *time;
    return true;
  }
  return false;
}

void apply_run_overrides(std::vector<JobSpec>& jobs, const RunOverrides& overrides) {
  for (JobSpec& job : jobs) {
    for (const auto& [name, value] : overrides.options) apply_option(job, name, value, SourcePos{});
    if (overrides.cap_size != 0) cap_size(job, overrides.cap_size);
    if (overrides.cap_runtime.count() > 0) cap_runtime(job, overrides.cap_runtime);
  }
}

}  // namespace sluice
