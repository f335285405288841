#pragma once
// `sluice lab truth`'s reports: pure functions of a Truth.
#include <nlohmann/json.hpp>
#include <string>

#include "lab/truth.h"

namespace sluice {

// The table: one line per row, approximations marked "~", then the notes.
std::string render_truth_text(const Truth& truth);

// {"model", "description", "validity", "latency_limit_ns", "expect": [rows], "notes"}; each row
// {what, rw, bs, iodepth, phase, fsync, iops, mean_lat_ns, bw_bytes, exact}. The command puts it under
// sluice.lab.truth.
nlohmann::json truth_json(const Truth& truth);

}  // namespace sluice
