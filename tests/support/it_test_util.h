#pragma once
// Shared helpers of the end-to-end CLI tests.
#include <gtest/gtest.h>
#include <unistd.h>

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/run_binary.h"

namespace sluice::testing {

// Parses the whole text as one JSON document; nullopt (and a test failure message) when it is not.
inline std::optional<nlohmann::json> parse_document(const std::string& text) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    ADD_FAILURE() << "not one valid JSON document: " << e.what() << "\n--- text (first 2000 chars) ---\n"
                  << text.substr(0, 2000);
    return std::nullopt;
  }
}

inline std::uint64_t total_ios(const nlohmann::json& job, const char* direction) {
  return job.at(direction).at("total_ios").get<std::uint64_t>();
}

inline bool is_root() { return ::geteuid() == 0; }

// Prints the child's output into a failure message.
inline std::string describe(const RunOutput& r) {
  return "exit " + std::to_string(r.exit_code) + " signal " + std::to_string(r.term_signal) +
         (r.timed_out ? " (timed out)" : "") + "\n--- stdout ---\n" + r.out.substr(0, 3000) +
         "\n--- stderr ---\n" + r.err.substr(0, 3000);
}

}  // namespace sluice::testing
