#pragma once
// What a client sent a server to run: command-line arguments (JOBLINE), job files' text (JOB) and paths of
// job files on the server (LOAD_FILE, fio's --remote-config), turned into validated JobSpecs.
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "job/job_spec.h"

namespace sluice::fionet {

struct ReceivedJobs {
  std::vector<std::string> args;  // without fio's argv[0]
  struct File {
    std::string name;  // for messages: "job file 1 from 127.0.0.1"
    std::string text;
  };
  std::vector<File> files;
  // What fio's filename_format=...$clientuid... becomes on this server: its own address on the connection
  // (fio's server: the address it listens on).
  std::string clientuid;
};

// The jobs as `sluice run ARGS FILES...` would run them: command-line jobs first, then each file's, overrides
// applied, $clientuid in filename_format replaced by `clientuid`, validated (none yet is no error: fio's client sends
// its command line before the job files). Throws UserError with every problem found (one per line).
struct PreparedJobs {
  std::vector<JobSpec> jobs;
  bool normal_output = true;  // the client's --output-format has normal: fio's server then logs the job banners
  // The client's --status-interval (fio's client sends it to its servers): the statistics so far, every this
  // often, as fio's server sends them.
  std::optional<std::chrono::nanoseconds> report_interval;
};
PreparedJobs prepare_jobs(const ReceivedJobs& received);

// How many clones the jobs start and how many reports (fio's thread_stats) they give: one per clone, or one
// per group under group_reporting; jobs with stats=0 give none.
struct JobCounts {
  std::uint32_t clones = 0;
  std::uint32_t reports = 0;
};
JobCounts count_jobs(const std::vector<JobSpec>& jobs);

}  // namespace sluice::fionet
