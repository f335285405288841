#pragma once
// fio's unified_rw_reporting: reads, writes and trims reported together as one "mixed" direction.
// Private to the report module.
#include <map>
#include <string>

#include "report/report_math.h"
#include "stats/result.h"

namespace sluice::report {

// The job with all directions merged into the read slot (write and trim emptied): render its read slot as
// "mixed".
JobResult merge_directions(const JobResult& job);
// The group with every job merged as above (for the "MIXED" group status line).
GroupResult merge_directions(const GroupResult& group);
// Group totals of the mixed direction (summed over the directions).
GroupDirectionTotals mixed_totals(const PerDirection<GroupDirectionTotals>& totals);
// unified_rw_reporting=both (or 2): per-direction blocks as well as "mixed".
bool unified_both(const std::map<std::string, std::string>& options);

}  // namespace sluice::report
