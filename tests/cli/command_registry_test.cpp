// Every registered command: its generated help lists every option of its table, and its own options mean
// the same everywhere (durations with a unit; a bare number refused).
#include "cli/command_registry.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "cli/commands.h"
#include "common/error.h"
#include "job/option_table.h"

namespace sluice {
namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;

TEST(CommandRegistry, HasEveryCommand) {
  for (const char* name : {"quick",   "capacity", "interfere", "precondition", "run",     "compare",  "report",
                           "history", "filetree", "restore",   "help",         "version", "sysbench", "postmark",
                           "iozone",  "bonnie",   "metadata",  "http",         "smtp",    "scale",    "lab"}) {
    EXPECT_NE(find_command(name), nullptr) << name;
  }
  EXPECT_EQ(find_command("--version")->name, "version");
  EXPECT_EQ(find_command("-h")->name, "help");
  EXPECT_EQ(find_command("qiuck"), nullptr);
}

// README's command table and the registry name the same commands: a new command is listed where users look.
TEST(CommandRegistry, ReadmesCommandTableNamesEveryCommand) {
  std::ifstream in(std::string(SLUICE_SOURCE_DIR) + "/README.md");
  std::stringstream text;
  text << in.rdbuf();
  const std::string readme = text.str();
  ASSERT_FALSE(readme.empty());
  for (const CommandEntry& e : command_registry()) {
    if (e.name == "help" || e.name == "version") continue;  // README says how to get help in prose
    EXPECT_NE(readme.find("| `sluice " + e.name), std::string::npos) << e.name << " is not in README's command table";
  }
  std::istringstream lines(readme);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("| `sluice ", 0) != 0) continue;
    const std::string name = line.substr(10, line.find_first_of(" `", 10) - 10);
    EXPECT_NE(find_command(name), nullptr) << "README's command table names `sluice " << name << "`";
  }
}

TEST(CommandRegistry, NearestCommandOnlyWhenClose) {
  EXPECT_EQ(nearest_command("qiuck"), "quick");
  EXPECT_EQ(nearest_command("capacty"), "capacity");
  EXPECT_EQ(nearest_command("defragment"), "");
}

// True when a line of `help` starts with the option ("  --name=", "  --name " ...), not just a longer name.
bool lists_option(const std::string& help, const std::string& name) {
  const std::string start = "\n  --" + name;
  for (std::size_t at = help.find(start); at != std::string::npos; at = help.find(start, at + 1)) {
    const char next = at + start.size() < help.size() ? help[at + start.size()] : '\n';
    if (next == '=' || next == '[' || next == ' ' || next == ',' || next == '\n') return true;  // [=V]: optional
  }
  return false;
}

// The text with every run of whitespace made one space (the help is wrapped).
std::string one_line(const std::string& text) {
  std::string out;
  for (char c : text) {
    const bool space = c == ' ' || c == '\n';
    if (space && !out.empty() && out.back() == ' ') continue;
    out += space ? ' ' : c;
  }
  return out;
}

TEST(CommandRegistry, EveryOptionAppearsInItsCommandsHelp) {
  for (const CommandEntry& e : command_registry()) {
    const std::string help = e.help();
    EXPECT_THAT(help, HasSubstr("usage: sluice " + e.name)) << e.name;
    ASSERT_NE(e.info, nullptr) << e.name;
    EXPECT_EQ(e.info->name, e.name);
    for (const OptionInfo& o : e.info->options) {
      EXPECT_TRUE(lists_option(help, o.name)) << e.name << " --help lacks --" << o.name;
      for (const std::string& alias : o.aliases) EXPECT_THAT(help, HasSubstr("--" + alias)) << e.name;
      EXPECT_FALSE(o.help.empty()) << e.name << " --" << o.name << " has no help";
      if (!o.default_text.empty()) {
        EXPECT_THAT(one_line(help), HasSubstr("default " + o.default_text)) << e.name << " " << o.name;
      }
    }
    for (const PositionalInfo& p : e.info->positionals) EXPECT_THAT(help, HasSubstr(p.name)) << e.name;
    if (e.info->passes_job_options && !e.info->lists_job_options) {
      EXPECT_THAT(one_line(help), HasSubstr("sluice run --help")) << e.name;
    }
  }
}

// What the registered command prints on stdout for `args`; its exit code in `code`.
std::string stdout_of(const CommandEntry& e, const std::vector<std::string>& args, int& code) {
  ::testing::internal::CaptureStdout();
  code = e.run(args);
  return ::testing::internal::GetCapturedStdout();
}

// No command answers --help itself: the registry does, from the table the command parses, before any other
// argument is checked.
TEST(CommandRegistry, EveryCommandAnswersHelpWithItsHelpText) {
  for (const CommandEntry& e : command_registry()) {
    for (const std::string flag : {"--help", "-h"}) {
      const std::vector<std::string> args = {"--no-such-option", flag};
      int code = -1;
      EXPECT_EQ(stdout_of(e, args, code), e.help()) << e.name << " " << flag;
      EXPECT_EQ(code, kExitOk) << e.name << " " << flag;
    }
  }
}

// A command that parses a second table (a lab action's) gets that table's help, not its own.
TEST(CommandRegistry, ALabActionAnswersHelpWithItsOwnTable) {
  int code = -1;
  const std::string help = stdout_of(*find_command("lab"), {"truth", "--help"}, code);
  EXPECT_EQ(code, kExitOk);
  EXPECT_THAT(help, HasSubstr("usage: sluice lab truth"));
}

TEST(CommandRegistry, RunHelpListsEveryJobOption) {
  const std::string help = find_command("run")->help();
  for (const OptionDef& def : option_table()) EXPECT_THAT(help, HasSubstr("  " + def.name)) << def.name;
}

TEST(CommandRegistry, EveryDefaultParses) {
  for (const CommandEntry& e : command_registry()) {
    if (e.info == nullptr) continue;
    for (const OptionInfo& o : e.info->options) {
      if (o.default_text.empty() || o.type == ValueType::kString) continue;
      EXPECT_NO_THROW(check_value(o, "--" + o.name, o.default_text)) << e.name << " --" << o.name;
    }
  }
}

// Every duration option of every command, as OptionInfo: the same strings give the same nanoseconds.
TEST(CommandUnits, DurationsMeanTheSameInEveryCommand) {
  const std::pair<const char*, std::chrono::nanoseconds> kCases[] = {
      {"10ms", 10ms}, {"1s", 1s}, {"500us", 500us}, {"2m", 2min}};
  int durations = 0;
  for (const CommandEntry& e : command_registry()) {
    if (e.info == nullptr) continue;
    for (const OptionInfo& o : e.info->options) {
      if (o.type != ValueType::kDuration) continue;
      ++durations;
      for (const auto& [text, expected] : kCases) {
        const ParsedArgs p = parse_arguments(*e.info, {"--" + o.name + "=" + text});
        ASSERT_EQ(p.items.size(), 1u);
        EXPECT_EQ(p.items[0].value.duration, expected) << e.name << " --" << o.name << "=" << text;
      }
    }
  }
  EXPECT_GE(durations, 5);  // capacity --slo --budget, quick --slo --budget, precondition --round, interfere --budget
}

TEST(CommandUnits, BareNumberIsRefusedByEveryDurationOption) {
  for (const CommandEntry& e : command_registry()) {
    if (e.info == nullptr) continue;
    for (const OptionInfo& o : e.info->options) {
      if (o.type != ValueType::kDuration) continue;
      const std::string arg = "--" + o.name + "=10";
      try {
        parse_arguments(*e.info, {arg});
        ADD_FAILURE() << e.name << " accepts " << arg;
      } catch (const UserError& error) {
        EXPECT_THAT(error.what(), HasSubstr(arg + ": add a unit, e.g. 10ms")) << e.name;
      }
    }
  }
}

// Every size option of every command reads a size string as `sluice run` reads it (k = 1024).
TEST(CommandUnits, SizesMeanTheSameInEveryCommandAndInRun) {
  int sizes = 0;
  for (const char* text : {"4k", "1m", "3g", "1536k"}) {
    JobSpec job;
    apply_option(job, "size", text, SourcePos{});
    for (const CommandEntry& e : command_registry()) {
      if (e.info == nullptr) continue;
      for (const OptionInfo& o : e.info->options) {
        if (o.type != ValueType::kSize || job.target.size.bytes < o.min) continue;
        ++sizes;
        const ParsedArgs p = parse_arguments(*e.info, {"--" + o.name + "=" + text});
        ASSERT_EQ(p.items.size(), 1u);
        EXPECT_EQ(p.items[0].value.number, job.target.size.bytes) << e.name << " --" << o.name << "=" << text;
      }
    }
  }
  EXPECT_GE(sizes, 4 * 5);  // interfere --size --bs --bg-bs --bg-size, precondition --size --bs, quick --size
}

}  // namespace
}  // namespace sluice
