#pragma once
// Writing a RunResult in the formats the user chose, to --output or stdout. Warnings never enter the
// documents: they go to stderr (and into JSON only under "sluice.warnings").
#include <string>

#include "job/job_spec.h"
#include "stats/result.h"

namespace sluice {

// Renders every chosen format, one after another. Throws UserError if --output cannot be written.
void write_outputs(const RunResult& result, const RunOptions& options);

// Prints each warning to stderr as "sluice: warning: <where>: <message>".
void print_warnings(const std::vector<Problem>& problems);

}  // namespace sluice
