#pragma once
// Pieces of the fio JSON document, shared between json_report.cpp (document, "sluice" section) and
// json_job.cpp (one "jobs" entry). Private to the report module.
#include <nlohmann/json.hpp>

#include "report/report_math.h"
#include "stats/result.h"

namespace sluice::report {

// One entry of fio's "jobs" array, key for key in fio 3.33's order. totals are the entry's group totals
// (for "bw_agg").
nlohmann::ordered_json job_json(const ReportedJob& entry, const PerDirection<GroupDirectionTotals>& totals,
                                bool json_plus);

// fio's "slat_ns" / "clat_ns" / "lat_ns" block: min, max (integers), mean, stddev (floats), N, then
// "percentile" (when asked and there are samples) and, for json+, "bins" {"<bucket value ns>": count}.
nlohmann::ordered_json latency_json(const LatencyStat& stat, bool with_percentiles,
                                    const std::vector<double>& percentile_list, bool json_plus);

}  // namespace sluice::report
