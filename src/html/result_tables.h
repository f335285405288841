#pragma once
// The HTML tables of a report: the numbers of every job and direction (rounded as sluice's normal text
// output rounds them), the spread over repetitions, the capacity curve, the interference phases and trials,
// the environment and the job options. Each returns an HTML fragment ("" when the document has no such data).
#include <nlohmann/json.hpp>
#include <string>

#include "html/report_input.h"

namespace sluice::html {

// Job, direction, IOPS, BW, clat min/max/avg/stdev and p50/p99/p99.9, formatted as in `sluice run`'s text.
std::string results_table(const nlohmann::json& doc);

// Per job and direction over the repetitions: IOPS min, median, max and coefficient of variation. "" for one.
std::string spread_table(const ReportInput& input);

// sluice capacity's curve points (with knee, thrashing and SLO), sluice interfere's phases and knob trials.
std::string capacity_table(const nlohmann::json& doc);
std::string interference_tables(const nlohmann::json& doc);

// sluice.environment flattened to "path: value" rows (sorted keys), and every job's options as a job file.
std::string environment_table(const nlohmann::json& doc);
std::string job_file_block(const nlohmann::json& doc);

}  // namespace sluice::html
