#pragma once
// What `sluice scale` runs: the options, the parallelism values, and the command line of one run with {N}
// replaced. Pure apart from the PATH lookup in check_scale_command.
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace sluice {

inline constexpr const char* kScalePlaceholder = "{N}";

struct ScaleOptions {
  std::vector<std::uint32_t> values;  // given with --values; empty: powers of two up to max
  std::uint32_t max = 0;              // 0: 2 x online CPUs
  std::uint32_t runs = 1;             // runs of the command at each N
  std::string prepare;                // shell command run before each run (untimed); "" = none
  bool shell = false;                 // run the command through /bin/sh -c
  std::string log_path = "sluice-scale.log";
  std::chrono::nanoseconds timeout{0};  // per run; 0 = none
  std::vector<std::string> command;     // the words after `--`
};

// The N values of the series: options.values as given, else 1, 2, 4, ... up to max (2 x cpus when max is 0;
// max itself is the last value even when it is not a power of two).
std::vector<std::uint32_t> scale_values(const ScaleOptions& options, unsigned cpus);

// The argv of the run at parallelism n: each word with every {N} replaced; a single word holding blanks is
// split at them (no quoting rules: use --shell for those); with --shell {"/bin/sh", "-c", words joined}.
std::vector<std::string> scale_argv(const ScaleOptions& options, std::uint32_t n);

// Checks before anything runs: a command is given, it contains {N}, and (without --shell) its program is an
// executable file or found in PATH. Throws UserError saying which.
void check_scale_command(const ScaleOptions& options);

// The program's path as execvp would find it in `path_env` (a PATH value); "" when not found.
std::string find_program(const std::string& program, const std::string& path_env);

}  // namespace sluice
