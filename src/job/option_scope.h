#pragma once
// Where a job's options came from, for fio's JSON: "global options" (from [global] sections, written once
// at the top of the document) and "job options" (the job's own section). A job-file option set above the
// job's section in the same file is global; a job given on the command line has no global options.
#include <map>
#include <string>

#include "job/job_spec.h"

namespace sluice {

bool is_global_option(const JobSpec& job, const std::string& name);
// The given options (name -> value as written) that are global / the job's own.
std::map<std::string, std::string> global_options_of(const JobSpec& job);
std::map<std::string, std::string> own_options_of(const JobSpec& job);

}  // namespace sluice
