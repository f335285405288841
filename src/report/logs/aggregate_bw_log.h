#pragma once
// fio's --bandwidth-log: agg-read_bw.log, agg-write_bw.log and agg-trim_bw.log, the bandwidth of all jobs
// together, one line per interval of the run's time series ("time_ms, KiB/s, ddir, 0, 0" in fio's log format).
#include <string>

#include "stats/result.h"

namespace sluice {

// Writes the three files into `directory` (replacing them), also when a direction did no I/O (the file is
// then empty, as fio leaves it). Throws UserError when a file cannot be written.
void write_aggregate_bw_logs(const RunResult& result, const std::string& directory);

}  // namespace sluice
