#pragma once
// One saved result of a measuring command: what was run, where and when, and the complete JSON document
// of every repetition (the environment is inside each document, under "sluice.environment").
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sluice {

struct StoredResult {
  std::string id;  // 8 hex characters; a unique prefix is accepted on lookup
  std::string label, command, host, sluice_version, command_line, job_text;
  std::string started_at, ended_at;         // ISO 8601 UTC: 2026-11-30T18:20:34Z
  std::vector<nlohmann::json> repetitions;  // each the complete JSON document the command produced
};

// The export form: every field by name, repetitions as an array. from_export() reads it back and throws
// UserError naming the missing or mistyped key.
nlohmann::json to_export(const StoredResult& result);
StoredResult from_export(const nlohmann::json& document);

// The current time as ISO 8601 UTC with seconds ("2026-11-30T18:20:34Z").
std::string utc_now_iso8601();

}  // namespace sluice
