#pragma once
// The list of sluice's commands: the single source for cli_main's dispatch, `sluice help`, the help of each
// command and the did-you-mean for an unknown command.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/command_table.h"

namespace sluice {

struct CommandEntry {
  std::string name;
  std::vector<std::string> aliases;  // "--version", "-h", ...
  std::string summary;               // one line for `sluice help`
  // Every start replays a knob journal a killed run left behind, except for commands that must not
  // touch the kernel (help, version) or that do it themselves (restore).
  bool replays_journal = true;
  // The arguments after the name; returns the exit code. -h/--help is answered here, for every command, from
  // the table the command parses (HelpRequested): no command answers it itself.
  std::function<int(const std::vector<std::string>&)> run;
  std::function<std::string()> help;  // the text of `sluice NAME --help`
  const CommandInfo* info = nullptr;  // the option table
};

// Every command, in the order `sluice help` lists them.
const std::vector<CommandEntry>& command_registry();

// By name or alias; nullptr when unknown.
const CommandEntry* find_command(std::string_view name);

// The command nearest to `name` (nearest_of), "" when none is close.
std::string nearest_command(std::string_view name);

}  // namespace sluice
