#pragma once
// Entry point of the sluice command: dispatches subcommands (run, quick, help, ...). Returns the exit code.
namespace sluice {
int cli_main(int argc, char** argv);
}
