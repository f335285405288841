#pragma once
// The reports of `sluice filetree`: pure functions of a FiletreeResult. The JSON document is complete before
// anything is printed (the command writes it as one document; later features such as --save take it whole).
#include <nlohmann/json.hpp>
#include <string>

#include "suites/filetree_run.h"

namespace sluice {

// MB/s (10^6 bytes per second) and files/s of a step; 0 when it took no measurable time.
double step_mb_per_second(const StepResult& step);
double step_files_per_second(const StepResult& step);

// The envelope (report/result_document.h) and "sluice": {..., "command": "filetree", "filetree": {...,
// "steps": [{"name", "bytes", "files", "seconds", "MB/s", "files/s", "completed", "latency_ns": {op: {count,
// mean, max, percentile: {"50.000000": ns, ...}}}}]}}}
nlohmann::json filetree_json(const FiletreeResult& result);

// The table: one line per step, then latency percentiles per step and operation kind, then the notes.
std::string render_filetree_text(const FiletreeResult& result);

}  // namespace sluice
