#pragma once
// Whether a metric changed between two sets of repetitions: a change is "better" or "worse" only when the
// two-sided Mann-Whitney U test is significant (p < alpha) AND the change of the medians is at least the
// noise floor; otherwise "within noise". "n/a" when the data cannot tell (too few repetitions, a metric
// one side lacks, an old value of 0), with the reason.
#include <optional>
#include <string>
#include <vector>

#include "compare/mann_whitney.h"
#include "compare/metrics.h"

namespace sluice {

enum class Verdict { kBetter, kWorse, kWithinNoise, kNotApplicable };

// "better", "worse", "within noise", "n/a".
const char* verdict_name(Verdict verdict);

struct VerdictSettings {
  double alpha = 0.05;     // --alpha
  double noise_pct = 2.0;  // --noise, in percent of the old median
  std::size_t min_repetitions = 3;
};

struct Judgement {
  std::optional<double> old_value;   // median of the old repetitions
  std::optional<double> new_value;   // median of the new ones
  std::optional<double> change_pct;  // (new - old) / |old| * 100
  std::optional<MannWhitney> test;   // when both sides have at least one value
  Verdict verdict = Verdict::kNotApplicable;
  std::string reason;  // why: the p-value and the change, or why it cannot tell
};

// Judges one metric from its per-repetition values on each side (either may be empty: the metric is missing).
Judgement judge(const std::vector<double>& old_values, const std::vector<double>& new_values, bool higher_is_better,
                const VerdictSettings& settings);

// The median of `values` (the mean of the middle two for an even count); 0 for none.
double median(std::vector<double> values);

struct CompareRow {
  std::string job;
  std::string direction;
  std::string metric;
  MetricUnit unit = MetricUnit::kIops;
  bool higher_is_better = true;
  std::vector<double> old_values;
  std::vector<double> new_values;
  Judgement judgement;
};

// One row per metric found on either side (old's order first, then what only new has), judged.
// `old_runs` and `new_runs` hold extract_metrics() of each repetition.
std::vector<CompareRow> compare_metrics(const std::vector<std::vector<Metric>>& old_runs,
                                        const std::vector<std::vector<Metric>>& new_runs,
                                        const VerdictSettings& settings);

}  // namespace sluice
