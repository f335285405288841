#pragma once
// Pieces of the normal (text) report. Private to the report module.
#include <string>

#include "report/report_math.h"
#include "stats/result.h"

namespace sluice::report {

// One job's (or group_reporting entry's) section: header line, each direction, latency buckets, sync,
// cpu, depths. Appends to out.
void append_job_section(std::string& out, const ReportedJob& entry, const PerDirection<GroupDirectionTotals>& totals);

// "clat percentiles (usec):" and its table, fio's layout. Appends nothing for an empty histogram.
void append_percentile_table(std::string& out, const LatencyHistogram& h, const std::vector<double>& list,
                             std::string_view name);

}  // namespace sluice::report
