#include "compare/compare.h"

#include <fmt/format.h>

#include "common/error.h"

namespace sluice {
namespace {

std::vector<std::vector<Metric>> metrics_of(const ResultSet& set) {
  std::vector<std::vector<Metric>> out;
  for (const nlohmann::json& doc : set.repetitions) out.push_back(extract_metrics(doc));
  return out;
}

Comparison compare_pair(const ResultSet& old_set, const ResultSet& new_set, const CompareOptions& options) {
  Comparison c;
  c.old_name = old_set.name;
  c.new_name = new_set.name;
  c.old_repetitions = old_set.repetitions.size();
  c.new_repetitions = new_set.repetitions.size();
  const nlohmann::json& old_doc = old_set.repetitions.front();
  const nlohmann::json& new_doc = new_set.repetitions.front();
  c.environment_recorded = has_environment(old_doc) && has_environment(new_doc);
  c.environment = environment_differences(old_doc, new_doc);
  c.job_options = job_option_differences(old_doc, new_doc);
  if (!c.job_options.empty() && !options.force) {
    std::string list;
    for (const Difference& d : c.job_options) {
      list += fmt::format("{}{} ({} -> {})", list.empty() ? "" : "; ", d.what, d.old_value, d.new_value);
    }
    throw UserError(fmt::format("{} and {} ran different job options: {}; add --force to compare them anyway",
                                old_set.name, new_set.name, list));
  }
  c.rows = compare_metrics(metrics_of(old_set), metrics_of(new_set), options.verdict);
  c.fail_on_hits = fail_on_hits(c.rows, options.fail_on);
  return c;
}

}  // namespace

bool CompareReport::failed() const {
  for (const Comparison& c : comparisons) {
    if (!c.fail_on_hits.empty()) return true;
  }
  return false;
}

CompareReport compare_sets(const std::vector<ResultSet>& sets, const CompareOptions& options) {
  if (sets.size() < 2) throw UserError("compare needs at least two results: sluice compare A B [C...]");
  CompareReport report;
  report.options = options;
  for (std::size_t i = 1; i < sets.size(); ++i) report.comparisons.push_back(compare_pair(sets[0], sets[i], options));
  return report;
}

}  // namespace sluice
