#pragma once
// The fio to compare with for options newer than Debian 12's fio 3.33 (ramp_size, ss=lat, end_syncfs,
// sprandom, random_sequence_stride, verify_policy...): $SLUICE_NEWER_FIO when it names an executable (a fio
// built from its source, e.g. /work/fio-3.42/bin/fio), otherwise "fio" from PATH. A test asks
// fio_knows_option() and skips its comparison, naming the fio, when that fio lacks the option: the rest of
// the test (sluice's own checks) still runs.
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "support/run_binary.h"

namespace sluice::testing {

/// The fio program to run for comparisons of newer options: $SLUICE_NEWER_FIO if executable, else "fio".
inline std::string newer_fio() {
  const char* path = std::getenv("SLUICE_NEWER_FIO");
  if (path != nullptr && *path != '\0' && ::access(path, X_OK) == 0) return path;
  return "fio";
}

/// True when `program` (a fio) documents `option` in `--cmdhelp` (fio prints "No such command" otherwise, and
/// a missing program fails to run).
inline bool fio_knows_option(const std::string& program, const std::string& option) {
  RunOptions options;
  options.program = program;
  options.timeout = std::chrono::milliseconds(10000);
  const RunOutput r = run_binary({"--cmdhelp=" + option}, options);
  return r.exit_code == 0 && r.out.find("No such command") == std::string::npos &&
         r.out.find(option + ":") != std::string::npos;
}

}  // namespace sluice::testing
