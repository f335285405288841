#pragma once
// The reports of `sluice metadata`: mdtest 4.0.0's summary (its layout and aggregation) followed by
// sluice's latency percentiles per phase, and the JSON document. Pure functions of a MetadataResult.
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "suites/metadata_run.h"

namespace sluice {

// One row of mdtest's summary: over the per-iteration values of a phase.
struct MetadataSummary {
  double max = 0;
  double min = 0;
  double mean = 0;
  double stddev = 0;  // sample standard deviation (n-1), 0 for fewer than two values (mdtest 4.0.0)
};

// Items per second of one phase of one iteration (all workers' items over the time between the barriers);
// 0 when nothing was done or no time passed, as mdtest prints phases it did not run.
double metadata_rate(const MetadataSample& sample);

// Max, min, mean and sample SD of `values`; all 0 when empty.
MetadataSummary summarize_metadata(const std::vector<double>& values);

// The rate of `phase` in every iteration that measured it; {0} when it was never measured.
std::vector<double> metadata_phase_rates(const MetadataResult& result, MetadataPhase phase);

// mdtest's text: header, "SUMMARY rate: (of N iterations)" table, then sluice's latency table and notes.
std::string render_metadata_text(const MetadataResult& result);

// The envelope (report/result_document.h) and "sluice": {..., "command": "metadata", "metadata": {options, plan,
// "iterations": [{phase_key: {items, seconds, rate}}], "summary": {phase_key: {name, max, min, mean,
// stddev}}, "latency_ns": {phase_key: {count, mean, max, percentile}}, interrupted, notes}}}
nlohmann::json metadata_json(const MetadataResult& result);

}  // namespace sluice
