#pragma once
// The subcommands. Each takes the arguments after its name and returns the process exit code;
// UserError escapes to cli_main, which prints it and exits 1.
#include <string>
#include <vector>

namespace sluice {

int run_command(const std::vector<std::string>& args);
int quick_command(const std::vector<std::string>& args);
int help_command(const std::vector<std::string>& args);

// Exit codes.
inline constexpr int kExitOk = 0;
inline constexpr int kExitError = 1;        // bad input, failed job, I/O error
inline constexpr int kExitInterrupted = 130; // stopped by SIGINT/SIGTERM; results were still printed

}  // namespace sluice
