// The command line of every subcommand, parsed and validated but never run: the first argument names the
// command (as argv[1]); the command's table parses the rest (cli/command_table.h); the job options it
// passes on go through `sluice run`'s parser and validate_all, as the command would before measuring.
// The commands with a parse seam (cli/command_args.h) also apply their values; compare's --fail-on and
// postmark's --set are parsed as those commands parse them.
#include "cli/command_args.h"
#include "cli/command_registry.h"
#include "compare/fail_on.h"
#include "fuzz_support.h"
#include "job/command_line.h"
#include "job/validate.h"
#include "suites/postmark_script.h"

namespace {

using sluice::ParsedArgs;
using sluice::ParsedItem;

// What `sluice run ARGS --parse-only` checks, without reading job files.
void check_run(const std::vector<std::string>& args) {
  const sluice::RunArgs parsed = sluice::parse_run_args(args);
  for (const sluice::Problem& p : sluice::validate_all(parsed.command_line.jobs)) {
    if (p.message.empty()) throw sluice::UserError("");  // a problem without a message
  }
}

// The values whose parsing a command does after the table (by option name, so every command is covered).
void check_own_values(const ParsedArgs& parsed) {
  for (const ParsedItem& item : parsed.items) {
    if (item.option == nullptr) continue;
    if (item.option->name == "fail-on") (void)sluice::parse_fail_on(item.value.list);
    if (item.option->name == "set") (void)sluice::postmark_set_option(item.value.text);
  }
}

void check_parsed_command(const sluice::CommandEntry& entry, const std::vector<std::string>& args) {
  const ParsedArgs parsed = sluice::parse_arguments(*entry.info, args);
  check_own_values(parsed);
  std::vector<std::string> passed_on;
  for (const ParsedItem& item : parsed.items) {
    if (item.option == nullptr) passed_on.push_back(item.passed_on);
  }
  if (entry.name == "capacity") passed_on = sluice::parse_capacity_args(args).job_args;
  if (entry.name == "quick") (void)sluice::parse_quick_args(args);
  if (entry.name == "precondition") (void)sluice::parse_precondition_args(args);
  if (entry.name == "interfere") (void)sluice::parse_interfere_args(args);
  if (entry.name == "restore") (void)sluice::parse_restore_args(args);
  if (!passed_on.empty()) {
    const sluice::JobCommandLine job = sluice::parse_job_command_line(passed_on);
    for (const sluice::Problem& p : sluice::validate_all(job.jobs)) {
      if (p.message.empty()) throw sluice::UserError("");
    }
  }
}

// -h/--help anywhere: the framework's answer (HelpRequested), rendered as the registry renders it.
void check_command(const sluice::CommandEntry& entry, const std::vector<std::string>& args) {
  try {
    if (entry.name == "run") return check_run(args);
    check_parsed_command(entry, args);
  } catch (const sluice::HelpRequested& help) {
    (void)sluice::render_command_help(help.command());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::string> argv = sluice::fuzz::split_arguments(sluice::fuzz::as_text(data, size));
  if (argv.empty()) return 0;
  sluice::fuzz::expect_clean([&] {
    const std::vector<std::string> rest(argv.begin() + 1, argv.end());
    if (const sluice::CommandEntry* entry = sluice::find_command(argv.front())) return check_command(*entry, rest);
    if (argv.front().rfind("--", 0) == 0) {  // "sluice --name=x" is sluice run
      return check_command(*sluice::find_command("run"), argv);
    }
    (void)sluice::nearest_command(argv.front());
  });
  return 0;
}
