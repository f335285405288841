#pragma once
// The numbers and reports of a `sluice scale` series: per N the wall time (mean, min, max), speedup and
// efficiency against the first N, CPU time and utilization, and the knee.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "scale/scale_run.h"

namespace sluice {

// Adding parallelism "pays" while the next N's speedup is at least this factor above the current one.
inline constexpr double kKneeGain = 1.10;

struct ScaleRowStats {
  std::uint32_t n = 0;
  double wall_mean = 0, wall_min = 0, wall_max = 0;  // seconds
  double speedup = 0;                                // first row's mean wall / this row's mean wall
  double efficiency = 0;                             // speedup x first N / N (1.0 = perfect scaling)
  double cpu_user_s = 0, cpu_sys_s = 0;              // mean per run
  double busy_cpus = 0;                              // (user + sys) / wall: CPUs kept busy on average
  double utilization = 0;                            // busy_cpus / online CPUs
};

std::vector<ScaleRowStats> scale_stats(const std::vector<ScaleRow>& rows, unsigned cpus);

// The knee: the first N whose next step gains less than kKneeGain in speedup (going from N to the next
// value makes the command less than 10% faster); nullopt when every step paid (or fewer than two rows).
std::optional<std::uint32_t> scale_knee(const std::vector<ScaleRowStats>& stats);

// The JSON document: the envelope (report/result_document.h) and "sluice": {..., "command": "scale",
// environment (with "virtualization"), "scale": {command, values, runs, log, rows [{n, wall_s{mean,min,max},
// speedup, efficiency, cpu_user_s, cpu_sys_s, busy_cpus, utilization}], knee, knee_rule, failure}}.
nlohmann::json scale_json(const ScaleResult& result);

// The table for people.
std::string render_scale_text(const ScaleResult& result);

}  // namespace sluice
