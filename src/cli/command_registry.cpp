#include "cli/command_registry.h"

#include <algorithm>
#include <cstdio>

#include "cli/command_args.h"
#include "cli/commands.h"
#include "common/nearest.h"

namespace sluice {
namespace {

using CommandRun = std::function<int(const std::vector<std::string>&)>;

// `run` with the framework's answer to --help: parse_arguments throws HelpRequested for -h/--help, and this
// prints the help of the table that was being parsed, exit code 0.
CommandRun answering_help(CommandRun run) {
  return [run = std::move(run)](const std::vector<std::string>& args) {
    try {
      return run(args);
    } catch (const HelpRequested& asked) {
      const std::string text = render_command_help(asked.command());
      std::fwrite(text.data(), 1, text.size(), stdout);
      return kExitOk;
    }
  };
}

CommandEntry entry(const CommandInfo& info, CommandRun run) {
  CommandEntry e;
  e.name = info.name;
  e.summary = info.summary;
  e.run = std::move(run);
  e.help = [&info] { return render_command_help(info); };
  e.info = &info;
  return e;
}

std::vector<CommandEntry> make_registry() {
  std::vector<CommandEntry> r;
  r.push_back(entry(quick_command_info(), quick_command));
  r.push_back(entry(capacity_command_info(), capacity_command));
  r.push_back(entry(interfere_command_info(), interfere_command));
  r.push_back(entry(precondition_command_info(), precondition_command));
  r.push_back(entry(filetree_command_info(), filetree_command));
  r.push_back(entry(sysbench_command_info(), sysbench_command));
  r.push_back(entry(postmark_command_info(), postmark_command));
  r.push_back(entry(iozone_command_info(), iozone_command));
  r.push_back(entry(metadata_command_info(), metadata_command));
  r.push_back(entry(bonnie_command_info(), bonnie_command));
  r.push_back(entry(http_command_info(), http_command));
  r.push_back(entry(smtp_command_info(), smtp_command));
  r.push_back(entry(scale_command_info(), scale_command));
  r.push_back(entry(lab_command_info(), lab_command));
  r.push_back(entry(selftest_command_info(), selftest_command));
  r.push_back(entry(server_command_info(), server_command));
  r.push_back(entry(run_command_info(), run_command));
  r.back().aliases = {"fio"};  // `sluice fio ARGS`, as the fio link (cli_main) runs it
  r.push_back(entry(compare_command_info(), compare_command));
  r.push_back(entry(report_command_info(), report_command));
  r.push_back(entry(history_command_info(), history_command));
  r.back().replays_journal = false;
  r.push_back(entry(restore_command_info(), restore_command));
  r.back().replays_journal = false;
  r.push_back(entry(help_command_info(), help_command));
  r.back().aliases = {"--help", "-h"};
  r.back().replays_journal = false;
  r.push_back(entry(version_command_info(), version_command));
  r.back().aliases = {"--version"};
  r.back().replays_journal = false;
  for (CommandEntry& e : r) e.run = answering_help(std::move(e.run));
  return r;
}

}  // namespace

const std::vector<CommandEntry>& command_registry() {
  static const std::vector<CommandEntry> kRegistry = make_registry();
  return kRegistry;
}

const CommandEntry* find_command(std::string_view name) {
  for (const CommandEntry& e : command_registry()) {
    if (e.name == name || std::find(e.aliases.begin(), e.aliases.end(), name) != e.aliases.end()) return &e;
  }
  return nullptr;
}

std::string nearest_command(std::string_view name) {
  std::vector<std::string> names;
  for (const CommandEntry& e : command_registry()) names.push_back(e.name);
  return nearest_of(name, names);
}

}  // namespace sluice
