#pragma once
// JobControlOptions and the types of its fields: a part of JobSpec (job/job_spec.h composes the parts). Include this
// header, not job_spec.h, where only this part is needed.
#include <chrono>
#include <cstdint>
#include <string>

namespace sluice {

enum class JobRole { kForeground, kBackground };

// The job among the run's jobs: clones, groups, waits, flow shares, and commands around its I/O.
struct JobControlOptions {
  std::uint32_t numjobs = 1;
  bool thread = false;                  // sluice always runs jobs as threads; accepted for compatibility
  JobRole role = JobRole::kForeground;  // role=background: runs beside the group's foreground jobs
  bool stonewall = false;
  bool new_group = false;
  std::string wait_for;   // name of a job that must finish before this one starts
  bool exitall = false;   // when this job ends, stop every job of the group
  std::int32_t flow = 0;  // fio flow weight; 0 = not used
  std::uint32_t flow_id = 0;
  // How long a job ahead of its flow share sleeps before checking again (fio's flow_sleep, in microseconds).
  std::chrono::nanoseconds flow_sleep{std::chrono::microseconds(1000)};
  std::string exec_prerun;   // shell command before the job's I/O (output in NAME.prerun.txt)
  std::string exec_postrun;  // and after it (NAME.postrun.txt)
};

}  // namespace sluice
