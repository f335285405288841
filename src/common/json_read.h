#pragma once
// Reading fields of a JSON document that came from outside (a result file, a history record): the field's
// value when it has the expected type, else the fallback. nlohmann's value() throws type_error when the key
// holds another type (or the node is not an object), which reached users as an internal error (fuzzing).
#include <string>

#include <nlohmann/json.hpp>

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

}  // namespace sluice
