#pragma once
// The reports of a PostMark run: PostMark's own (verbose or terse, computed as PostMark computes them, from
// whole seconds and with integer or float division), sluice's additions (sub-second phase times and rates,
// latency percentiles per operation) and the JSON of the run.
#include <nlohmann/json.hpp>
#include <string>

#include "suites/postmark_run.h"

namespace sluice {

// PostMark's report: "Time:" / "Files:" / "Data:" (verbose) or its one terse line. Empty when the run did
// not complete (PostMark prints no report then).
std::string render_postmark_report(const PostmarkRunResult& run);

// What PostMark printed to stdout during the run, before the report: "Creating files...Done", the
// transactions line with its dots, "Deleting files...Done" and the subdirectory lines.
std::string render_postmark_progress(const PostmarkRunResult& run);

// sluice's additions, after PostMark's report: phase times to the microsecond, exact rates, bytes and
// latency percentiles of create, read, append and delete.
std::string render_postmark_extras(const PostmarkRunResult& run);

// The run as JSON: config, end, "postmark" (the report's numbers; only for a complete run), "measured"
// (exact times, counts and rates), "latency_ns" per operation (fio's lat_ns keys) and the environment.
nlohmann::json postmark_run_json(const PostmarkRunResult& run);

}  // namespace sluice
