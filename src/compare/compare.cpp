#include "compare/compare.h"

#include <fmt/format.h>

#include "common/error.h"
#include "common/json_read.h"

namespace sluice {
namespace {

std::vector<std::vector<Metric>> metrics_of(const ResultSet& set) {
  std::vector<std::vector<Metric>> out;
  for (const nlohmann::json& doc : set.repetitions) out.push_back(extract_metrics(doc));
  return out;
}

// "old A, repetition 2: ended with exit code 1 ..." for each repetition that did not end cleanly.
void add_caveats(const char* side, const ResultSet& set, std::vector<std::string>& out) {
  for (std::size_t i = 0; i < set.repetitions.size(); ++i) {
    const nlohmann::json& doc = set.repetitions[i];
    const nlohmann::json& sluice = doc.contains("sluice") ? doc.at("sluice") : nlohmann::json::object();
    const std::string where =
        fmt::format("{} {}{}", side, set.name, set.repetitions.size() > 1 ? fmt::format(", repetition {}", i + 1) : "");
    const int exit_code =
        sluice.is_object() && sluice.contains("exit_code") && sluice.at("exit_code").is_number_integer()
            ? sluice.at("exit_code").get<int>()
            : 0;
    const bool interrupted = sluice.is_object() && flag_or(sluice, "interrupted", false);
    if (exit_code != 0) {
      out.push_back(
          fmt::format("{}: ended with exit code {} (saved after a failure): its figures cover only what "
                      "was measured before it",
                      where, exit_code));
    } else if (interrupted) {
      out.push_back(fmt::format("{}: was interrupted: its figures cover only what was measured before", where));
    }
  }
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
  add_caveats("old", old_set, c.caveats);
  add_caveats("new", new_set, c.caveats);
  if (new_doc.contains("timestamp") && new_doc.at("timestamp").is_number_integer()) {
    c.new_timestamp = new_doc.at("timestamp").get<std::int64_t>();
  }
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
