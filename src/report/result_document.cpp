#include "report/result_document.h"

#include <array>
#include <ctime>
#include <stdexcept>
#include <utility>

#include "version.h"

namespace sluice {
namespace {

// The keys the envelope writes: a command's parts must not hold them.
constexpr std::array<const char*, 5> kEnvelopeTopKeys = {"fio version", "timestamp", "timestamp_ms", "time", "sluice"};
constexpr std::array<const char*, 4> kEnvelopeSluiceKeys = {"version", "command", "schema_version", "clock_source"};

template <class Json, std::size_t N>
void check_envelope_part(const Json& part, const std::array<const char*, N>& owned, const char* where) {
  if (part.is_null()) return;
  if (!part.is_object()) throw std::logic_error(std::string("result_document: ") + where + " is not an object");
  for (const char* key : owned) {
    if (part.contains(key)) {
      throw std::logic_error(std::string("result_document: ") + where + " holds \"" + key +
                             "\", which the envelope writes");
    }
  }
}

template <class Json>
Json build_document(const ResultEnvelope& e, Json top, Json sluice) {
  if (e.command.empty()) throw std::logic_error("result_document: no command");
  check_envelope_part(top, kEnvelopeTopKeys, "the top level");
  check_envelope_part(sluice, kEnvelopeSluiceKeys, "the \"sluice\" section");
  const std::string version = e.version.empty() ? std::string(SLUICE_VERSION) : e.version;
  Json doc = Json::object();
  doc["fio version"] = "sluice-" + version;
  doc["timestamp"] = e.timestamp_ms / 1000;
  doc["timestamp_ms"] = e.timestamp_ms;
  doc["time"] = ctime_text(e.timestamp_ms);
  if (top.is_object()) {
    for (auto it = top.begin(); it != top.end(); ++it) doc[it.key()] = std::move(*it);
  }
  Json section = Json::object();
  section["version"] = version;
  section["command"] = e.command;
  section["schema_version"] = kResultSchemaVersion;
  if (e.clock_source) section["clock_source"] = *e.clock_source;
  if (sluice.is_object()) {
    for (auto it = sluice.begin(); it != sluice.end(); ++it) section[it.key()] = std::move(*it);
  }
  doc["sluice"] = std::move(section);
  return doc;
}

}  // namespace

std::string ctime_text(std::uint64_t timestamp_ms) {
  const std::time_t seconds = static_cast<std::time_t>(timestamp_ms / 1000);
  std::tm tm{};
  if (localtime_r(&seconds, &tm) == nullptr) return "";
  char buf[64];
  const std::size_t n = std::strftime(buf, sizeof buf, "%a %b %e %H:%M:%S %Y", &tm);
  return std::string(buf, n);
}

nlohmann::json result_document(const ResultEnvelope& envelope, nlohmann::json top, nlohmann::json sluice) {
  return build_document(envelope, std::move(top), std::move(sluice));
}

nlohmann::ordered_json result_document_ordered(const ResultEnvelope& envelope, nlohmann::ordered_json top,
                                               nlohmann::ordered_json sluice) {
  return build_document(envelope, std::move(top), std::move(sluice));
}

}  // namespace sluice
