#pragma once
// Reporters: pure functions of a RunResult. Nothing global, no I/O beyond returning text.
#include <string>

#include <nlohmann/json.hpp>

#include "stats/result.h"

namespace sluice {

// fio's normal (human) output, with units always named.
std::string render_normal(const RunResult& result);

// fio's JSON schema key for key ("fio version", "jobs", ... "disk_util"), sluice's additions under "sluice".
// json_plus adds the histogram "bins" to clat_ns / lat_ns / slat_ns as fio's json+ does.
nlohmann::json render_json(const RunResult& result, bool json_plus);

}  // namespace sluice
