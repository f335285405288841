#include "history/stored_result.h"

#include <ctime>

#include "common/error.h"

namespace sluice {

nlohmann::json to_export(const StoredResult& r) {
  return nlohmann::json{{"id", r.id},
                        {"label", r.label},
                        {"command", r.command},
                        {"host", r.host},
                        {"sluice_version", r.sluice_version},
                        {"command_line", r.command_line},
                        {"job_text", r.job_text},
                        {"started_at", r.started_at},
                        {"ended_at", r.ended_at},
                        {"repetitions", r.repetitions}};
}

StoredResult from_export(const nlohmann::json& d) {
  auto text = [&d](const char* key) {
    if (!d.contains(key) || !d[key].is_string())
      throw UserError(std::string("exported result: \"") + key + "\" missing or not a string");
    return d[key].get<std::string>();
  };
  StoredResult r;
  r.id = text("id");
  r.label = text("label");
  r.command = text("command");
  r.host = text("host");
  r.sluice_version = text("sluice_version");
  r.command_line = text("command_line");
  r.job_text = text("job_text");
  r.started_at = text("started_at");
  r.ended_at = text("ended_at");
  if (!d.contains("repetitions") || !d["repetitions"].is_array()) {
    throw UserError("exported result: \"repetitions\" missing or not an array");
  }
  for (const nlohmann::json& rep : d["repetitions"]) r.repetitions.push_back(rep);
  return r;
}

std::string utc_now_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace sluice
