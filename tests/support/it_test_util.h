#pragma once
// Shared helpers of the end-to-end CLI tests.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

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
         (r.timed_out ? " (timed out)" : "") + "\n--- stdout ---\n" + r.out.substr(0, 3000) + "\n--- stderr ---\n" +
         r.err.substr(0, 3000);
}

// Runs fio's command line `args` with fio itself (program "fio") or as `sluice run ARGS` (any other program
// name), and expects exit 0. The fio-comparison tests run the same options through both.
inline RunOutput run_as(const std::string& program, std::vector<std::string> args, RunOptions options = {}) {
  if (program == "fio")
    options.program = "fio";
  else
    args.insert(args.begin(), "run");
  RunOutput r = run_binary(args, options);
  EXPECT_EQ(r.exit_code, 0) << program << ": " << describe(r);
  return r;
}

// Runs `sluice run ARGS` and expects it refused: exit 1 with `message` on stderr.
inline void expect_run_refused(std::vector<std::string> args, const std::string& message) {
  args.insert(args.begin(), "run");
  const RunOutput r = run_binary(args);
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
}

// A run under strace: the program's output and the lines of its trace.
struct TracedRun {
  RunOutput run;
  std::vector<std::string> lines;
};

// Runs fio (program "fio") or `sluice run ARGS` (any other program name) under `strace -f -qq -e trace=CALLS`
// (CALLS: strace's list, e.g. "splice,vmsplice"), the trace written to `trace_path`; at most 60 s. The
// caller checks run.exit_code (a failed run leaves a partial trace).
inline TracedRun run_traced(const std::string& program, const std::vector<std::string>& args, const std::string& calls,
                            const std::string& trace_path) {
  std::vector<std::string> command = {
      "-f", "-qq", "-e", "trace=" + calls, "-o", trace_path, program == "fio" ? "fio" : SLUICE_BINARY};
  if (program != "fio") command.emplace_back("run");
  command.insert(command.end(), args.begin(), args.end());
  RunOptions options;
  options.program = "strace";
  options.timeout = std::chrono::seconds(60);
  TracedRun traced{run_binary(command, options), {}};
  std::ifstream in(trace_path);
  for (std::string line; std::getline(in, line);) traced.lines.push_back(line);
  return traced;
}

// One io of a version 3 io log (write_iolog): the file as the log names it, the action, offset and length.
struct LoggedIo {
  std::string file;
  std::string action;
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
  bool operator==(const LoggedIo&) const = default;
};

inline std::ostream& operator<<(std::ostream& os, const LoggedIo& io) {
  return os << io.file << " " << io.action << " " << io.offset << " " << io.length;
}

// The reads, writes and trims of a version 3 io log, in order (file lines and syncs left out).
inline std::vector<LoggedIo> logged_ios(const std::string& path) {
  std::ifstream in(path);
  std::vector<LoggedIo> ios;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string time;
    LoggedIo io;
    if (!(fields >> time >> io.file >> io.action >> io.offset >> io.length)) continue;
    if (io.action == "read" || io.action == "write" || io.action == "trim") ios.push_back(io);
  }
  return ios;
}

}  // namespace sluice::testing
