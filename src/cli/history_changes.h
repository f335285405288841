#pragma once
// `sluice history changes`: the change points (history/change_points.h) of metrics over a series of saved
// results, each with the result where the series shifted and what differed between it and the result before
// (compare/environment_diff.h: the environment, and the job options when --force let them differ).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "compare/environment_diff.h"
#include "history/change_points.h"
#include "history/stored_result.h"

namespace sluice {

struct ChangesRequest {
  std::vector<std::string> metrics;  // metric paths; empty: the headline metrics of the latest result
  std::string job;                   // the job whose metrics are followed ("" = the first, or each headline's)
  bool force = false;                // follow results whose job options differ as one series
  ChangePointOptions detection;
};

struct FoundChange {
  std::string metric;      // the metric path
  std::string job;         // "" = the first job
  std::size_t index = 0;   // 1-based position in the metric's series (results that have the metric)
  std::size_t series_length = 0;
  ChangePoint point;
  std::string run_id, started_at, label;  // the first result after the shift
  std::string previous_id;                // the result before it
  std::vector<Difference> environment;    // between those two
  std::vector<Difference> job_options;    // between those two (only with force)
};

struct ChangesReport {
  ChangesRequest request;
  std::size_t results = 0;
  std::string first_started_at, last_started_at;
  std::vector<std::string> metrics;  // as followed, "JOB: PATH" when a job was named
  std::vector<std::size_t> lengths;  // each metric's series length
  std::vector<FoundChange> changes;  // by metric, then position
};

// The change points of each requested metric over `results` (oldest first, one command). Throws UserError when
// the results mix commands, or when adjacent results ran different job options and request.force is off
// (naming both results and the options), or when there are no results.
ChangesReport find_history_changes(const std::vector<StoredResult>& results, const ChangesRequest& request);

// One block per metric: its changes with the shift in % and its interval, the p-value and the differences.
std::string render_changes_text(const ChangesReport& report);
// {"sluice": {"history": {"method": {...}, "results": N, "metrics": [...], "changes": [...]}}}.
nlohmann::json changes_json(const ChangesReport& report);

}  // namespace sluice
