// sluice postmark: PostMark 1.5x's small-file workload and report (suites/postmark_*.h), from a PostMark
// configuration file, stdin or --set.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>

#include "cli/command_args.h"
#include "cli/command_options.h"
#include "cli/commands.h"
#include "cli/history_options.h"
#include "cli/output.h"
#include "common/error.h"
#include "common/stop_signal.h"
#include "job/job_spec.h"
#include "suites/postmark_prompt.h"
#include "suites/postmark_report.h"
#include "suites/postmark_session.h"
#include "version.h"

namespace sluice {
namespace {

constexpr const char* kDescription =
    R"(PostMark (Katcher, NetApp 1997; v1.51) as a sluice command: a pool of small files is created, then
transactions each read or append a random file and create or delete one, then the rest is deleted. The
commands are PostMark's own (set size LOW [HIGH], set number, set transactions, set subdirectories, set read,
set write, set buffering true|false, set bias read, set bias create, set location DIR|+DIR W|-DIR, set seed,
set report verbose|terse, run [FILE], show [FILE], load FILE, help, quit), read from CONFIG, or from stdin
when CONFIG is absent and stdin is not a terminal ("-" reads stdin always); at a terminal, PostMark's pm> prompt,
each command acting as it is typed (build/postmark, a link to sluice, runs this command). --set NAME=VALUE wins over the
script's own settings; a script without `run` runs once at its end.

The same seed creates, reads, appends and deletes the same files as PostMark (its Mersenne Twister with the
1998 seeding and its order of draws), so the counts equal the original's. The report is PostMark's, computed
as it computes it (whole seconds, integer rates); sluice adds the phase times to the microsecond, exact rates
and latency percentiles of create, read, append and delete. Every location is checked (a writable directory
with room for the pool) before anything is created. Ctrl-C stops the transactions, deletes the files the run
created (only those) and reports what was measured.
)";

struct PostmarkArgs {
  std::vector<std::string> sets;
  OutputChoice output;
  HistoryChoice history;
};

CommandTable<PostmarkArgs> make_table() {
  CommandInfo info = command_info("postmark",
                                  "PostMark's small-file benchmark with its commands and report, plus sub-second "
                                  "timing and latency percentiles per operation",
                                  kDescription);
  info.positionals = {{"CONFIG", "a PostMark configuration file (\"-\": stdin)", false}};
  CommandTable<PostmarkArgs> t(std::move(info));
  OptionInfo set = text_arg("set", "NAME=VALUE", "",
                            "a PostMark setting, as `set NAME VALUE`: size=500,10000 number=1000 transactions=5000 "
                            "location=/mnt/x bias-read=5 ...; wins over CONFIG");
  set.repeatable = true;
  t.add(std::move(set), [](PostmarkArgs& a, const OptionValue& v) { a.sets.push_back(v.text); });
  add_output_options(t, &PostmarkArgs::output);
  add_history_options(t, &PostmarkArgs::history);
  return t;
}

const CommandTable<PostmarkArgs>& table() {
  static const CommandTable<PostmarkArgs> kTable = make_table();
  return kTable;
}

// Appends `text` to FILE of `run FILE` / `show FILE`, as PostMark does.
void append_to(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::app);
  if (!out || !(out << text)) throw UserError("postmark: cannot direct output to file '" + path + "'");
}

// PostMark's prompt for a person at a terminal: each command acts as it is typed; the report of each run is
// printed as it ends, the whole session's document (--output-format, --output, --save) when the prompt ends.
int prompt(const PostmarkArgs& cli, const std::vector<PostmarkCommand>& overrides,
           const std::vector<std::string>& args) {
  check_postmark_script({}, overrides);
  install_stop_signal_handlers();
  std::fputs("PostMark v1.51 : 8/14/01 (sluice " SLUICE_VERSION " postmark)\n", stdout);
  const PostmarkSession session = run_postmark_prompt(std::cin, stdout, overrides, [] { return stop_requested(); });
  if (session.items.empty()) return kExitOk;
  const OutputChoice& output = cli.output;
  const bool on_screen = output.formats.size() == 1 && output.formats[0] == RunOptions::OutputFormat::kNormal &&
                         output.path.empty();  // the text was all printed as the prompt went
  if (on_screen && !cli.history.save) return kExitOk;
  HistoryChoice history = cli.history;
  history.repeat = 1;  // a person's session is not repeated
  return run_measured({"postmark", args, ""}, history, output, [&](bool) {
    return Measurement{on_screen ? "" : render_postmark_session(session), postmark_session_json(session).dump(2) + "\n",
                       session.interrupted ? kExitInterrupted : kExitOk};
  });
}

}  // namespace

const CommandInfo& postmark_command_info() { return table().info(); }

int postmark_command(const std::vector<std::string>& args) {
  const ParsedArgs parsed = parse_arguments(table().info(), args);
  PostmarkArgs cli;
  table().apply(parsed, cli, nullptr);

  std::vector<PostmarkCommand> overrides;
  for (const std::string& s : cli.sets) overrides.push_back(postmark_set_option(s));
  std::vector<PostmarkCommand> commands;
  std::vector<std::string> config_files;
  const std::string config = parsed.positionals.empty() ? "" : parsed.positionals.front();
  if (config.empty() && isatty(STDIN_FILENO) == 1) return prompt(cli, overrides, args);
  if (config == "-" || config.empty()) {
    commands = parse_postmark_script(std::cin, "stdin");
  } else if (!config.empty()) {
    commands = parse_postmark_file(config);
    config_files.push_back(config);
  }
  check_postmark_script(commands, overrides);

  const bool normal_only = cli.output.formats.size() == 1 && cli.output.formats[0] == RunOptions::OutputFormat::kNormal;
  const bool live = normal_only && isatty(STDERR_FILENO) == 1;
  install_stop_signal_handlers();
  std::string config_text;
  for (const std::string& file : config_files) {
    std::ifstream in(file);
    config_text += std::string(std::istreambuf_iterator<char>(in), {});
  }
  return run_measured({"postmark", args, config_text}, cli.history, cli.output, [&](bool) {
    PostmarkSession session = run_postmark_session(
        commands, overrides,
        [live](const std::string& text) {
          if (!live) return;
          std::fputs(text.c_str(), stderr);
          std::fflush(stderr);
        },
        [] { return stop_requested(); });
    session.config_files = config_files;
    for (const PostmarkSessionItem& item : session.items) {
      if (item.file.empty()) continue;
      append_to(item.file, item.run ? render_postmark_report(*item.run) : item.text);
    }
    return Measurement{render_postmark_session(session), postmark_session_json(session).dump(2) + "\n",
                       session.interrupted ? kExitInterrupted : kExitOk};
  });
}

}  // namespace sluice
