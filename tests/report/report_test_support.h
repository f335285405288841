#pragma once
// Synthetic results and fixture loading for the report tests.
#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "stats/result.h"

namespace sluice::test {

inline constexpr std::uint64_t kRuntimeNs = 2'000'000'000ull;  // 2 s

// A job with `reads` and `writes` 4 KiB I/Os whose clat is 50 us + (i % 100) us, lat = clat + 2 us,
// slat 1500 ns + (i % 10) ns; per-second samples; every percentile block enabled.
inline JobResult make_job(const std::string& name, std::uint64_t reads, std::uint64_t writes,
                          std::uint64_t runtime_ns = kRuntimeNs) {
  JobResult job;
  job.name = name;
  job.runtime_ns = runtime_ns;
  job.start_ns = 1'000'000'000ull;
  job.end_ns = job.start_ns + runtime_ns;
  job.settings.rw = "randrw";
  job.settings.ioengine = "libaio";
  job.settings.iodepth = 4;
  job.settings.lat_percentiles = true;
  job.settings.slat_percentiles = true;
  job.options = {{"name", name}, {"rw", "randrw"}, {"bs", "4k"}};
  const std::uint64_t counts[2] = {reads, writes};
  for (int d = 0; d < 2; ++d) {
    DirectionStats& dir = job.dirs[static_cast<std::size_t>(d)];
    for (std::uint64_t i = 0; i < counts[d]; ++i) {
      const std::uint64_t clat = 50'000 + (i % 100) * 1'000;
      dir.clat.record(clat);
      dir.lat.record(clat + 2'000);
      dir.slat.record(1'500 + i % 10);
      ++dir.ios;
      dir.bytes += 4096;
    }
    if (counts[d] > 0) {
      const double per_second = static_cast<double>(counts[d]) / 2.0;
      dir.iops_samples.add(per_second * 0.9);
      dir.iops_samples.add(per_second * 1.1);
      dir.bw_samples.add(per_second * 0.9 * 4096);
      dir.bw_samples.add(per_second * 1.1 * 4096);
    }
  }
  const std::uint64_t total = reads + writes;
  job.depth.level[2] = total;
  job.depth.submit[1] = total;
  job.depth.complete[1] = total;
  job.depth.total_submit_calls = total;
  job.depth.total_complete_calls = total;
  job.cpu.user_seconds = 0.1;
  job.cpu.system_seconds = 0.5;
  job.cpu.context_switches = 1234;
  job.cpu.minor_faults = 12;
  PerDirection<IntervalSample> sample{};
  sample[0] = {reads / 2, reads / 2 * 4096, reads / 2 * 60'000, 99'000};
  sample[1] = {writes / 2, writes / 2 * 4096, writes / 2 * 60'000, 99'000};
  job.series.append(sample);
  job.series.append(sample);
  return job;
}

inline RunResult make_run(std::vector<JobResult> jobs, bool group_reporting = false) {
  RunResult run;
  run.version = "0.1.0";
  run.timestamp_ms = 1'795'993'098'606ull;
  run.clock_source = "clock_gettime(CLOCK_MONOTONIC)";
  GroupResult group;
  group.group_reporting = group_reporting;
  group.jobs = std::move(jobs);
  run.groups.push_back(std::move(group));
  DiskUtilization disk;
  disk.name = "vda";
  disk.read_ios = 100;
  disk.write_ios = 50;
  disk.util_percent = 42.5;
  run.disks.push_back(disk);
  return run;
}

inline std::string fixture_path(const std::string& name) {
  return std::string(SLUICE_SOURCE_DIR) + "/tests/report/fixtures/" + name;
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline nlohmann::json load_fixture(const std::string& name) {
  return nlohmann::json::parse(read_text(fixture_path(name)));
}

}  // namespace sluice::test
