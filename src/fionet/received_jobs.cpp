// The jobs a client sent, parsed and validated as sluice run parses and validates them.
#include "fionet/received_jobs.h"

#include <algorithm>

#include "common/error.h"
#include "job/command_line.h"
#include "job/job_file.h"
#include "job/run_overrides.h"
#include "job/validate.h"
#include "run/plan.h"

namespace sluice::fionet {

PreparedJobs prepare_jobs(const ReceivedJobs& received) {
  ParsedCommandLine parsed = parse_run_command_line(received.args);
  std::vector<JobSpec> jobs = std::move(parsed.jobs);
  JobFileSettings settings;
  settings.globals = parsed.globals;
  for (const ReceivedJobs::File& file : received.files) {
    for (FileJob& job : parse_job_text(file.text, file.name, settings)) jobs.push_back(std::move(job.spec));
  }
  apply_run_overrides(jobs, parsed.overrides);
  std::string errors;
  for (const Problem& problem : validate_all(jobs)) {
    if (problem.severity != Problem::Severity::kError) continue;
    errors += (errors.empty() ? "" : "\n") + problem.where.describe() + ": " +
              (problem.option.empty() ? "" : problem.option + ": ") + problem.message;
  }
  if (!errors.empty()) throw UserError(errors);
  PreparedJobs prepared;
  prepared.jobs = std::move(jobs);
  const auto& formats = parsed.run.output_formats;
  prepared.normal_output = std::find(formats.begin(), formats.end(), RunOptions::OutputFormat::kNormal) != formats.end();
  return prepared;
}

JobCounts count_jobs(const std::vector<JobSpec>& jobs) {
  JobCounts counts;
  for (const GroupPlan& group : make_plan(jobs)) {
    std::uint32_t reported = 0;
    for (const JobInstance& clone : group.jobs) {
      ++counts.clones;
      if (clone.spec.stats && clone.spec.role == JobRole::kForeground) ++reported;
    }
    counts.reports += group.group_reporting ? (reported ? 1 : 0) : reported;
  }
  return counts;
}

}  // namespace sluice::fionet
