#pragma once
// The charts of one result document, as ChartSpecs: latency percentile spectrum and CDF of every job and
// direction, per-interval IOPS with p99 and bandwidth per job (sluice's "sluice.jobs[].series"), the
// capacity curve (sluice capacity) and the interference timeline (sluice interfere).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "html/chart.h"
#include "html/report_input.h"

namespace sluice::html {

// One latency distribution of a job and direction: percentile points (p in [0, 100), latency in ns), the
// number of I/Os behind them.
struct LatencyCurve {
  std::string name;                     // "job1 read"
  std::vector<ChartPoint> percentiles;  // x = p (percent), y = latency ns; increasing p
  std::uint64_t ios = 0;
};

// Every job and direction with I/Os in `doc`: from "clat_ns" ("lat_ns" when clat is absent), the full
// histogram bins when present (json+), else the percentile list. Background jobs are included, named so.
std::vector<LatencyCurve> latency_curves(const nlohmann::json& doc);

// A unit for latencies whose largest value is `max_ns`: {"ns", 1}, {"µs", 1e3} or {"ms", 1e6}
// (the largest unit in which it is at least 2).
struct TimeUnit {
  const char* name;
  double divisor;
};
TimeUnit latency_unit(double max_ns);

// The percentile spectrum: x = 1/(1-p) on a log axis (ticks 0, 50, 90, 99, 99.9, 99.99, 99.999%), y = the
// latency; each curve drawn only up to p <= 1 - 1/N (N = its I/Os).
ChartSpec spectrum_chart(const std::string& id, const std::string& title, const std::vector<LatencyCurve>& curves);

// The CDF of the same curves: x = latency on a log axis, y = percent of I/Os at or below it.
ChartSpec cdf_chart(const std::string& id, const std::string& title, const std::vector<LatencyCurve>& curves);

// All charts of one document; ids are `id_prefix` + "spectrum", "cdf", "timeline-<job>", "bandwidth-<job>",
// "capacity", "interference", "dirty". `title_suffix` follows each title (the input's name, or "").
std::vector<ChartSpec> result_charts(const nlohmann::json& doc, const std::string& id_prefix,
                                     const std::string& title_suffix);

// Compare overlays for several inputs (the compare verdict table comes from src/compare): the latency
// spectra of every input's first repetition in one chart, id "overlay-spectrum". Empty with < 2 inputs.
std::vector<ChartSpec> overlay_charts(const std::vector<ReportInput>& inputs);

}  // namespace sluice::html
