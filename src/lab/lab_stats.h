#pragma once
// `sluice lab stats`: the daemon's record (the JSON of MOUNTPOINT/stats, see lab/lab_daemon.h) as a table.
#include <nlohmann/json.hpp>
#include <string>

namespace sluice {

// One line per op (read, write, flush): count, bytes, and the mean queue, service and total time per request.
// `where` names the lab. Throws UserError when `stats` is not the daemon's record.
std::string render_lab_stats_text(const nlohmann::json& stats, const std::string& where);

}  // namespace sluice
