#pragma once
// sluice-only run options that change jobs after every job file was read (fio has no equivalent: its
// command-line options before a job file are defaults that the file overrides):
//   --override=OPTION=VALUE  set a job option in every job, after the files (the last word); repeatable
//   --cap-size=SIZE          every job's size, filesize and io_size at most SIZE (percent sizes become SIZE)
//   --cap-runtime=TIME       every job's runtime at most TIME (size-based jobs also stop by then); ramp_time,
//                            startdelay and steadystate durations are capped too
// Used to run foreign job files small and in a scratch directory (the fio-examples corpus test).
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "job/job_spec.h"

namespace sluice {

struct RunOverrides {
  std::vector<std::pair<std::string, std::string>> options;  // --override, in order
  std::uint64_t cap_size = 0;                                // 0 = none
  std::chrono::nanoseconds cap_runtime{0};                   // 0 = none
  bool empty() const noexcept { return options.empty() && cap_size == 0 && cap_runtime.count() == 0; }
};

// Parses "--override" / "--cap-size" / "--cap-runtime" values into `out`; false when `name` is none of them.
// Throws UserError on a bad value.
bool parse_run_override(const std::string& name, const std::string& value, RunOverrides& out);

// Applies the overrides to every job. Throws UserError (an unknown option, a bad value).
void apply_run_overrides(std::vector<JobSpec>& jobs, const RunOverrides& overrides);

}  // namespace sluice
