#pragma once
// The numbers a compare looks at, read from one result document (sluice's JSON of any measuring command or
// fio's JSON): per job and direction IOPS, bandwidth, mean, p50, p99 and p99.9 latency; a capacity search's
// answer and knee; an interference run's slowdown per thread count. Each knows which direction is better.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace sluice {

enum class MetricUnit { kIops, kBytesPerSecond, kNanoseconds, kFactor };

struct Metric {
  std::string job;        // the job's name ("capacity", "interference 4 threads" for the methods' answers)
  std::string direction;  // "read", "write", "trim", or "" for the methods' answers
  std::string name;       // one of metric_names()
  MetricUnit unit = MetricUnit::kIops;
  bool higher_is_better = true;
  double value = 0;
};

// The metric names, as --fail-on takes them: iops, bw, mean, p50, p99, p99.9, capacity, knee, slowdown.
const std::vector<std::string>& metric_names();

// Every metric `doc` holds, in document order. Directions without I/O are left out; a latency percentile
// is taken from "lat_ns" when the run recorded total-latency percentiles, else from "clat_ns" (fio's default).
std::vector<Metric> extract_metrics(const nlohmann::json& doc);

// "job/direction/name": what identifies a metric across repetitions and runs.
std::string metric_key(const Metric& metric);

}  // namespace sluice
