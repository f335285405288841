#pragma once
// Reading fields of a JSON document that came from outside (a result file, a history record): the field's
// value when it has the expected type, else the fallback. nlohmann's value() throws type_error when the key
// holds another type (or the node is not an object), which reached users as an internal error (fuzzing).
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "common/error.h"
#include "common/result_schema.h"

namespace sluice {

// j[key] when j is an object and j[key] a string, else `fallback`.
inline std::string text_or(const nlohmann::json& j, const char* key, std::string fallback) {
  if (!j.is_object()) return fallback;
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : fallback;
}

// j[key] when j is an object and j[key] a boolean, else `fallback`.
inline bool flag_or(const nlohmann::json& j, const char* key, bool fallback) {
  if (!j.is_object()) return fallback;
  const auto it = j.find(key);
  return it != j.end() && it->is_boolean() ? it->get<bool>() : fallback;
}

// j[key] when j is an object holding key, else `fallback` (a null, an empty array or object).
inline nlohmann::json field_or(const nlohmann::json& j, const char* key, nlohmann::json fallback) {
  if (!j.is_object()) return fallback;
  const auto it = j.find(key);
  return it != j.end() ? *it : fallback;
}

// The schema version a result document declares ("sluice"."schema_version"): kLegacyResultSchemaVersion when it
// declares none (fio's documents, sluice's before version 1), which every reader accepts. Throws UserError
// naming `name` (the file, or the stored result) when the version is newer than kResultSchemaVersion, naming
// both versions (this sluice cannot know what changed), or when it is not a non-negative integer.
inline int check_result_schema(const nlohmann::json& doc, const std::string& name) {
  if (!doc.is_object()) return kLegacyResultSchemaVersion;
  const auto section = doc.find("sluice");  // found, not copied: the section may hold a day's series
  if (section == doc.end() || !section->is_object()) return kLegacyResultSchemaVersion;
  const auto version = section->find("schema_version");
  if (version == section->end() || version->is_null()) return kLegacyResultSchemaVersion;
  if (!version->is_number_integer() || version->get<std::int64_t>() < 0) {
    throw UserError(name + ": \"sluice\".\"schema_version\" is " + version->dump() +
                    ", not a result schema version (a whole number)");
  }
  const auto found = version->get<std::int64_t>();
  if (found > kResultSchemaVersion) {
    throw UserError(name + ": result schema version " + std::to_string(found) + " is newer than this sluice's (" +
                    std::to_string(kResultSchemaVersion) +
                    "): a newer sluice wrote it; read it with that sluice or a newer one");
  }
  return static_cast<int>(found);
}

}  // namespace sluice
