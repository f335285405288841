#pragma once
// fio 3.33's thread_stat (a TS message from a fio or sluice server) read back into sluice's JobResult, so a
// sluice client reports what servers measured with sluice's own reporters. fio's latency buckets map one to one
// onto sluice's histogram buckets below fio's ~17 s clamp, so the histograms (and percentiles) are exact.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "stats/result.h"

namespace sluice::fionet {

struct DecodedStat {
  JobResult job;
  std::uint32_t thread_number = 0;
  std::uint64_t summed_runtime_ms = 0;  // fio's total_run_time (the base of usr_cpu / sys_cpu)
};

// nullopt when the payload is shorter than a thread_stat.
std::optional<DecodedStat> decode_thread_stat(const std::vector<std::uint8_t>& payload);

// A JOB_OPT message: option name and value, whether it is a global one, and the report index it belongs to.
struct JobOption {
  std::string name;
  std::string value;
  bool global = false;
  std::uint32_t index = 0;
};
std::optional<JobOption> decode_job_option(const std::vector<std::uint8_t>& payload);

}  // namespace sluice::fionet
