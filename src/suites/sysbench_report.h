#pragma once
// sysbench fileio 1.0.20's report, field for field (sb_fileio.c file_print_mode, file_report_intermediate,
// file_report_cumulative; sysbench.c sb_report_cumulative), from one JSON block that holds every number, so
// the text and --output-format=json cannot disagree.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/error.h"
#include "stats/latency_histogram.h"
#include "suites/sysbench_files.h"
#include "suites/sysbench_run.h"

namespace sluice {

// sysbench's own percentile of a latency histogram, in ms: its 1024 log buckets from 0.001 ms to 100 s
// (sb_histogram.c), the grid value of the first bucket whose cumulative count reaches
// floor(N * p / 100 + 0.5). sluice's histogram is re-binned into that grid (sluice's buckets are < 1% wide,
// far narrower than sysbench's ~2.2%). When the rank rounds to 0 it is the grid's first value, 0.001 ms, as in
// sysbench; 0 when the histogram is empty or p = 0.
double sysbench_percentile_ms(const LatencyHistogram& histogram, unsigned percentile);

// --histogram's table on sysbench's grid: "Latency histogram (values are in milliseconds)", the header line,
// one "%12.3f |%-40s %lu" row per non-empty bucket (stars scaled to the largest count), then " ".
std::string render_sysbench_histogram(const LatencyHistogram& histogram);

// The `prepare` report (after sysbench's banner), in two parts as sysbench prints them: before the work
// ("4 files, 16384Kb each, 64Mb total", "Creating files for the test...") and after it (flags, one line per
// file, "N bytes written in S seconds (X MiB/sec).").
std::string render_sysbench_prepare_intro(const SysbenchOptions& o);
std::string render_sysbench_prepare(const SysbenchOptions& o, const SysbenchPrepareResult& r);

// The lines before the run: options, file mode, "Threads started!". `seed` is the seed given, 0 = from time.
std::string render_sysbench_header(const SysbenchOptions& o);

// One --report-interval line: "[ 1s ] reads: 61.83 MiB/s writes: ... latency (ms,95%): 0.012".
std::string render_sysbench_interval(const nlohmann::json& interval, unsigned percentile);

// The "sysbench" block: options, the report's numbers (rates, throughput, totals, latency, fairness),
// raw counts, intervals and sluice's exact percentiles.
nlohmann::json sysbench_json(const SysbenchOptions& o, const SysbenchRunResult& r);
nlohmann::json sysbench_interval_json(const SysbenchInterval& interval, unsigned percentile);

// The report after the run, from sysbench_json's block: File operations ... Threads fairness, then sluice's
// percentiles, engine and the environment line (`environment` may be null).
std::string render_sysbench_report(const nlohmann::json& block, const nlohmann::json& environment);

// sluice's methodology warnings for this run (page cache, async latency meaning).
std::vector<Problem> sysbench_warnings(const SysbenchOptions& o, const nlohmann::json& environment);

}  // namespace sluice
