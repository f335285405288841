#pragma once
// A compare of result sets: each later set against the first, with the environment and job-option
// differences and one judged row per metric. Pure: the inputs are already loaded (result_source.h).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compare/environment_diff.h"
#include "compare/fail_on.h"
#include "compare/result_source.h"
#include "compare/verdict.h"

namespace sluice {

struct CompareOptions {
  VerdictSettings verdict;
  bool force = false;  // compare runs whose job options differ
  std::vector<FailRule> fail_on;
};

struct Comparison {
  std::string old_name;
  std::string new_name;
  std::size_t old_repetitions = 0;
  std::size_t new_repetitions = 0;
  bool environment_recorded = true;  // both sides carry sluice's environment record
  std::vector<Difference> environment;
  std::vector<Difference> job_options;
  std::vector<CompareRow> rows;
  std::vector<FailOnHit> fail_on_hits;
  // Repetitions that did not end cleanly (interrupted, or saved after a failure with sluice.exit_code):
  // their figures cover only what was measured before; one line each, naming the side and repetition.
  std::vector<std::string> caveats;
  // When the new side was measured: its first repetition's "timestamp" (seconds since the epoch, as fio
  // writes it); nullopt when the document has none.
  std::optional<std::int64_t> new_timestamp;
};

struct CompareReport {
  CompareOptions options;
  std::vector<Comparison> comparisons;  // sets[1..] each against sets[0]
  bool failed() const;                  // some --fail-on rule fired
};

// Compares sets[i] against sets[0] for every i >= 1 (at least two sets). The environment and the job
// options are those of each set's first repetition. Throws UserError listing the differing job options when
// they differ and options.force is off.
CompareReport compare_sets(const std::vector<ResultSet>& sets, const CompareOptions& options);

}  // namespace sluice
