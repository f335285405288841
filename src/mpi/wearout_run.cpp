#include "mpi/wearout_run.h"

#include <algorithm>

#include "common/error.h"
#include "mpi/world.h"
#include "run/plan.h"

namespace sluice::mpi {
namespace {

// The largest block a job can issue: the bound of the bytes its catch-up may need.
std::uint64_t largest_block(const JobSpec& job) {
  std::uint64_t largest = 1;
  for (std::size_t d = 0; d < job.workload.bs.size(); ++d) {
    largest = std::max({largest, job.workload.bs[d], job.workload.bsrange[d].max});
    for (const BlockSizeSplitEntry& e : job.workload.bssplit[d]) largest = std::max(largest, e.size);
  }
  return largest;
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

}  // namespace

JobSpec wearout_job(const JobSpec& clone, int jobnum, std::uint64_t ios) {
  JobSpec job = clone;
  job.control.numjobs = 1;
  // The clone's own files: its number where its name template has it (a single clone would be number 0).
  if (job.target.filenames.empty()) {
    const std::string format =
        job.target.filename_format.empty() ? "$jobname.$jobnum.$filenum" : job.target.filename_format;
    job.target.filename_format = replace_all(format, "$jobnum", std::to_string(jobnum));
  }
  job.time.time_based = false;
  job.time.runtime = std::chrono::nanoseconds(0);
  job.time.ramp_time = std::chrono::nanoseconds(0);
  job.time.startdelay = std::chrono::nanoseconds(0);
  job.time.loops = 1;
  job.time.number_ios = ios;
  job.time.io_size = ios * largest_block(job);  // enough bytes, wrapping around the file; number_ios ends it
  job.control.stonewall = false;
  job.control.new_group = false;
  return job;
}

std::vector<RankWearOut> run_wearout(const std::vector<JobSpec>& jobs, const RunResult& measured,
                                     RunnerOptions options) {
  std::vector<std::uint64_t> mine;
  for (const GroupResult& g : measured.groups) {
    for (const JobResult& j : g.jobs) mine.push_back(j.total_ios());
  }
  // Every rank ran the same jobs; a rank that did not (a different job count) cannot be compared.
  const std::uint64_t count = mine.size();
  if (max(static_cast<double>(count)) != static_cast<double>(count) ||
      sum(count) != count * static_cast<std::uint64_t>(size())) {
    throw UserError("--mpi-wearout: the ranks ran different numbers of jobs; run the same jobs on every rank");
  }
  const std::vector<std::uint64_t> busiest = max_each(mine);
  const std::vector<GroupPlan> plan = make_plan(jobs);

  options.before_measure = nullptr;  // no meeting points: ranks catch up independently
  options.after_measure = nullptr;
  options.before_run = nullptr;
  options.after_run = nullptr;
  options.status_line = false;
  options.capture_environment = false;

  std::vector<RankWearOut> out;
  std::size_t at = 0;
  for (std::size_t g = 0; g < measured.groups.size(); ++g) {
    RankWearOut w;
    std::vector<JobSpec> catch_up;
    for (std::size_t j = 0; j < measured.groups[g].jobs.size(); ++j, ++at) {
      w.deadline_ios += mine[at];
      const std::uint64_t behind = busiest[at] - mine[at];
      if (behind == 0 || g >= plan.size() || j >= plan[g].jobs.size()) continue;
      const JobInstance& clone = plan[g].jobs[j];
      catch_up.push_back(wearout_job(clone.spec, clone.jobnum, behind));
    }
    if (!catch_up.empty()) {
      const RunResult extra = run_jobs(catch_up, options);
      std::uint64_t start = 0;
      for (const GroupResult& eg : extra.groups) {
        for (const JobResult& ej : eg.jobs) {
          w.extra_ios += ej.total_ios();
          for (const DirectionStats& d : ej.dirs) w.extra_bytes += d.bytes;
          start = start == 0 ? ej.start_ns : std::min(start, ej.start_ns);
          w.end_ns = std::max(w.end_ns, ej.end_ns);
        }
      }
      w.start_ns = start;
    }
    out.push_back(w);
  }
  return out;
}

}  // namespace sluice::mpi
