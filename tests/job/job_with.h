#pragma once
// A job named "j" with the given options applied through the option table, as a job file would.
#include <initializer_list>
#include <utility>

#include "job/option_table.h"

namespace sluice::testing {

inline JobSpec job_with(std::initializer_list<std::pair<const char*, const char*>> options) {
  JobSpec job;
  job.name = "j";
  for (const auto& [name, value] : options) apply_option(job, name, value, SourcePos{});
  return job;
}

}  // namespace sluice::testing
