#pragma once
// sluice http's reports: the "sluice"."http" JSON block and the text report (sluice's table followed by
// an http_load-style summary block), both pure functions of an HttpLoadResult.
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "net/http_load.h"

namespace sluice {

// {"requests_per_s", "bytes_per_s", "fetches", "errors": {kind: n, "total", "first": [...]},
//  "status_codes": {"200": n}, "connect_ns"/"ttfb_ns"/"latency_ns": {min, max, mean, N, percentile: {...}}, ...}
nlohmann::json http_json(const HttpLoadOptions& options, const HttpLoadResult& result);

// The text report rendered from http_json's block.
std::string render_http_report(const nlohmann::json& http);

}  // namespace sluice
