#pragma once
// What a report is drawn from: named result sets, each one or more repetitions of the same measurement as
// the JSON document a measuring command wrote (sluice's run, quick, capacity, interfere, precondition, or
// fio's own --output-format=json). The lead switches the command to compare/result_source.h's
// load_result_set when merging; this is the file-only loader until then.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sluice::html {

struct ReportInput {
  std::string name;                            // shown in titles and legends: the file's name
  std::vector<nlohmann::json> repetitions;     // at least one document
};

// Reads one JSON result file. Throws UserError with one line naming the file: missing or unreadable,
// not JSON (with the line of the first error), or JSON that is no fio/sluice result (no "jobs" array).
// Text before the document's first line starting with '{' is skipped, as fio prints notes there.
ReportInput load_report_file(const std::string& path);

// Which command wrote the document: "run", "quick", "capacity", "interfere", "precondition" (from the
// "sluice" section) or "fio".
std::string result_kind(const nlohmann::json& doc);

}  // namespace sluice::html
