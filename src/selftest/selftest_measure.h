#pragma once
// Reading a check's measured value from the JSON document its command wrote (fio's result document, with
// sluice's sections under "sluice"). Pure.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "selftest/selftest_plan.h"

namespace sluice {

// The value `measure` names in `doc` (ns, ios/s, a concurrency, or 1/0); nullopt with `why` set when the
// document does not hold it (a failed job: its error; a missing section).
std::optional<double> read_measure(const nlohmann::json& doc, Measure measure, std::string& why);

// sluice compare's verdict on the row of `job`, `direction` and `metric` (its first comparison) as a number: 1
// better, 0 within noise, -1 worse, 2 n/a; nullopt with `why` when there is no such row.
std::optional<double> read_verdict(const nlohmann::json& doc, const std::string& job, const std::string& direction,
                                   const std::string& metric, std::string& why);

// The verdict's number as compare names it ("better", "within noise", "worse", "n/a").
const char* verdict_word(double code);

// The first JSON document in `text` (a program may print warnings before it); nullopt when there is none.
std::optional<nlohmann::json> parse_result_document(const std::string& text);

}  // namespace sluice
