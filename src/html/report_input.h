#pragma once
// What a report is drawn from: named result sets, each one or more repetitions of the same measurement as
// the JSON document a measuring command wrote (sluice's run, quick, capacity, interfere, precondition, or
// fio's own --output-format=json), as compare/result_source.h's load_result_set reads them from files or
// the history.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sluice::html {

struct ReportInput {
  std::string name;                         // shown in titles and legends: the file's name
  std::vector<nlohmann::json> repetitions;  // at least one document
};

// Which command wrote the document: "run", "quick", "capacity", "interfere", "precondition" (from the
// "sluice" section) or "fio".
std::string result_kind(const nlohmann::json& doc);

}  // namespace sluice::html
