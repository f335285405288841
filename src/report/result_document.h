#pragma once
// The result document's envelope, written here and nowhere else: every command's JSON document (run, the methods,
// the suites, the services) is made by result_document(), so each carries the same keys, described by
// docs/schema/sluice-result.schema.json. fio's keys at the top level as fio writes them ("fio version",
// "timestamp", "timestamp_ms", "time"), sluice's under "sluice": version, command, schema_version and, where the
// command timed with it, clock_source. Pure: the caller gives the times.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "common/result_schema.h"

namespace sluice {

struct ResultEnvelope {
  std::string command;             // "sluice"."command": "run", "iozone", "sysbench fileio run", ...
  std::uint64_t timestamp_ms = 0;  // wall clock when the measurement started, ms since the epoch
  std::string version;             // sluice's version ("fio version" is "sluice-" and it); empty: this binary's
  // "sluice"."clock_source": the clock latencies were timed by; nullopt: not written (the command times nothing
  // with sluice's clock). A value is written even when empty, as a run's result always wrote it.
  std::optional<std::string> clock_source;
};

// ctime()'s layout ("Sun Nov 29 22:58:18 2026") of `timestamp_ms` in local time, as fio writes "time"; "" when
// the time cannot be converted.
std::string ctime_text(std::uint64_t timestamp_ms);

// The document: the envelope's top-level keys, then `top`'s (fio's "global options", "jobs", "disk_util", ...)
// in their order, then "sluice": the envelope's keys followed by `sluice`'s (the command's own section). `top`
// and `sluice` are objects (null counts as empty). Throws std::logic_error when envelope.command is empty or
// either holds a key the envelope writes: a command never writes those itself.
nlohmann::json result_document(const ResultEnvelope& envelope, nlohmann::json top, nlohmann::json sluice);
// The same in nlohmann::ordered_json, whose keys print in the order written (fio's order: render_json_ordered).
nlohmann::ordered_json result_document_ordered(const ResultEnvelope& envelope, nlohmann::ordered_json top,
                                               nlohmann::ordered_json sluice);

}  // namespace sluice
