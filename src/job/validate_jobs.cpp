// Checks that concern several jobs at once: wait_for names an earlier job, options whose meaning depends on
// the clones of a job (offset_increment), and ramp_size and steadystate, one per group.
#include <fmt/format.h>

#include <algorithm>

#include "job/job_problems.h"
#include "job/option_builders.h"
#include "job/validate.h"

namespace sluice {
namespace {

Problem error_at(const JobSpec& job, const std::string& option, std::string message) {
  detail::JobProblems problems(job);
  problems.error(option, std::move(message));
  return std::move(problems.take().front());
}

void check_wait_for(const JobSpec& job, const std::vector<std::string>& earlier, std::vector<Problem>& out) {
  if (job.control.wait_for.empty()) return;
  if (job.control.wait_for == job.name) {
    out.push_back(
        error_at(job, "wait_for",
                 fmt::format("job {}: wait_for={}: a job cannot wait for itself", job.name, job.control.wait_for)));
    return;
  }
  if (std::find(earlier.begin(), earlier.end(), job.control.wait_for) != earlier.end()) return;
  std::string message = fmt::format("job {}: wait_for={}: no earlier job is named '{}'", job.name, job.control.wait_for,
                                    job.control.wait_for);
  const std::string nearest = detail::nearest_of(job.control.wait_for, earlier);
  if (!nearest.empty()) message += fmt::format("; did you mean '{}'?", nearest);
  out.push_back(error_at(job, "wait_for", std::move(message)));
}

// fio appends each clone's log to the write_iolog file as it goes: two writers interleave their lines in
// one file (fio: "the file may be corrupt"). sluice refuses that.
void check_iolog_writers(const std::vector<JobSpec>& jobs, std::vector<Problem>& out) {
  std::vector<std::pair<std::string, std::string>> writers;  // file, job
  for (const JobSpec& job : jobs) {
    if (job.iolog.write_iolog.empty()) continue;
    if (job.control.numjobs > 1) {
      out.push_back(error_at(job, "write_iolog",
                             fmt::format("job {}: write_iolog={} with numjobs={}: the clones would interleave their "
                                         "lines in one log; give each job its own log and numjobs=1",
                                         job.name, job.iolog.write_iolog, job.control.numjobs)));
    }
    for (const auto& [file, other] : writers) {
      if (file == job.iolog.write_iolog) {
        out.push_back(error_at(job, "write_iolog",
                               fmt::format("job {}: write_iolog={}: job {} writes the same log; give each job its "
                                           "own",
                                           job.name, file, other)));
      }
    }
    writers.emplace_back(job.iolog.write_iolog, job.name);
  }
}

// fio 3.42: the jobs of a group (up to the next stonewall or new_group) must have the same ramp_size, since
// under group_reporting their ramp ends together.
void check_ramp_size_groups(const std::vector<JobSpec>& jobs, std::vector<Problem>& out) {
  const JobSpec* first = nullptr;
  for (const JobSpec& job : jobs) {
    if (first == nullptr || job.control.stonewall || job.control.new_group) {
      first = &job;
      continue;
    }
    if (job.time.ramp_size != first->time.ramp_size) {
      out.push_back(error_at(job, "ramp_size",
                             fmt::format("job {}: ramp_size={} differs from job {}'s {} in the same group; give the "
                                         "jobs of a group one ramp_size (or start a new group with stonewall)",
                                         job.name, job.time.ramp_size, first->name, first->time.ramp_size)));
    }
  }
}

// fio (steadystate.c): the jobs of a reporting group must have the same steadystate options, since under
// group_reporting the group is judged as one job. Refused under group_reporting only: fio also refuses a
// group without it (even a job without ss beside one with it), where each job is judged alone anyway.
void check_steady_state_groups(const std::vector<JobSpec>& jobs, std::vector<Problem>& out) {
  const JobSpec* first = nullptr;
  for (const JobSpec& job : jobs) {
    if (first == nullptr || job.control.stonewall || job.control.new_group) {
      first = &job;
      continue;
    }
    if (!job.report.group_reporting && !first->report.group_reporting) continue;
    const bool same = job.steady_state.ss_criterion == first->steady_state.ss_criterion &&
                      job.steady_state.ss_limit == first->steady_state.ss_limit &&
                      job.steady_state.ss_limit_is_percent == first->steady_state.ss_limit_is_percent &&
                      job.steady_state.ss_duration == first->steady_state.ss_duration &&
                      job.steady_state.ss_ramp == first->steady_state.ss_ramp &&
                      job.steady_state.ss_interval == first->steady_state.ss_interval;
    if (!same) {
      out.push_back(error_at(job, "steadystate",
                             fmt::format("job {}: its steadystate options differ from job {}'s in the same group "
                                         "under group_reporting, which judges the group as one (fio: steadystate "
                                         "options must be consistent within reporting groups); give them the same "
                                         "ss, ss_dur, ss_ramp and ss_interval, or start a new group with stonewall",
                                         job.name, first->name)));
    }
  }
}

}  // namespace

std::vector<Problem> validate_across_jobs(const std::vector<JobSpec>& jobs) {
  std::vector<Problem> out;
  std::vector<std::string> earlier;
  for (const JobSpec& job : jobs) {
    check_wait_for(job, earlier, out);
    if (job.target.offset_increment != 0 && job.target.offset.percent > 0.0) {
      out.push_back(
          error_at(job, "offset_increment",
                   fmt::format("job {}: offset_increment with a percentage offset is not supported", job.name)));
    }
    earlier.push_back(job.name);
  }
  check_iolog_writers(jobs, out);
  check_ramp_size_groups(jobs, out);
  check_steady_state_groups(jobs, out);
  return out;
}

std::vector<Problem> validate_all(const std::vector<JobSpec>& jobs) {
  std::vector<Problem> out;
  for (const JobSpec& job : jobs) {
    for (Problem& p : validate(job)) out.push_back(std::move(p));
  }
  for (Problem& p : validate_across_jobs(jobs)) out.push_back(std::move(p));
  return out;
}

bool has_error(const std::vector<Problem>& problems) {
  return std::any_of(problems.begin(), problems.end(),
                     [](const Problem& p) { return p.severity == Problem::Severity::kError; });
}

}  // namespace sluice
