// sluice compare A B [C...]: did the change help? Each result against the first, with a verdict that knows
// noise (compare/compare.h).
#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <ctime>

#include "cli/command_options.h"
#include "cli/commands.h"
#include "cli/history_lookup.h"
#include "cli/output.h"
#include "common/error.h"
#include "compare/compare.h"
#include "compare/compare_junit.h"
#include "compare/compare_markdown.h"
#include "compare/compare_report.h"

namespace sluice {
namespace {

constexpr const char* kDescription =
    R"(Compares results: B (and C, ...) each against A. An input is a JSON file that sluice (run, quick,
capacity, interfere, precondition with --output-format=json) or fio (--output-format=json) wrote; a comma
list of such files, A1.json,A2.json,A3.json, whose documents are the repetitions of one side; or a history id
or label. First it lists what differs between the runs (kernel, CPU, memory, vm.dirty_*, each target's
filesystem and mount options, each device's model, scheduler, wbt and queue settings, sluice's version), then
per job and direction IOPS, bandwidth, mean, p50, p99 and p99.9 latency (and a capacity search's answer and
knee, an interference run's slowdown): old, new (medians of the repetitions), change and a verdict.

better or worse needs both: a two-sided Mann-Whitney U test on the per-repetition values gives p < --alpha
(exact distribution for up to 40 values without ties, else the normal approximation with tie correction),
and the change is at least --noise. Otherwise the row is within noise. n/a says why it cannot tell: fewer than
3 repetitions per side, or too few for any p below --alpha (3 and 3 give at best p = 0.1; 4 and 4 give 0.029),
or a metric only one side has. Runs with different job options are compared only with --force.

In a pipeline: --fail-on makes a significant change beyond a threshold exit 1; --output-format=junit writes
the compare as a JUnit XML test report (a test suite per comparison, a test case per job and metric, a
failure per breached rule naming the rule, both values and the change; n/a rows skipped with the reason),
which GitLab (artifacts:reports:junit), Jenkins (junit) and GitHub Actions' test-report actions show like
unit tests; --output-format=markdown a summary table for a pull-request comment. The exit code is the same
in every format.
)";

enum class CompareFormat { kNormal, kJson, kJunit, kMarkdown };

struct CompareArgs {
  std::vector<std::string> inputs;
  CompareOptions options;
  std::vector<std::string> fail_on;
  CompareFormat format = CompareFormat::kNormal;
  std::string output;
  std::string db;
};

// A number in (0, max] for --alpha and --noise; "2%" and "2" are the same for --noise.
double parse_fraction(const OptionValue& v, bool percent, double max) {
  std::string text = v.text;
  if (percent && !text.empty() && text.back() == '%') text.pop_back();
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value) || value < 0 || value > max) {
    throw UserError(
        fmt::format("{}: not a number from 0 to {:g}{}", v.where, max, percent ? "% (like 2%)" : " (like 0.05)"));
  }
  return value;
}

CommandTable<CompareArgs> make_table() {
  CommandInfo info = command_info(
      "compare", "compare results (files or history) and say whether each change is real or noise", kDescription);
  info.positionals = {
      {"A", "the baseline: a JSON file, a comma list of files (the repetitions) or a history id/label", true},
      {"B", "the result to compare with A, in the same forms", true},
      {"C...", "more results, each compared with A", false, true}};
  CommandTable<CompareArgs> t(std::move(info));
  t.add(text_arg("alpha", "P", "0.05", "significance level of the Mann-Whitney U test"),
        [](CompareArgs& a, const OptionValue& v) { a.options.verdict.alpha = parse_fraction(v, false, 1.0); });
  t.add(text_arg("noise", "PCT", "2%",
                 "noise floor: a smaller change of the medians is within noise even when significant"),
        [](CompareArgs& a, const OptionValue& v) { a.options.verdict.noise_pct = parse_fraction(v, true, 1000.0); });
  t.add(flag_arg("force", "compare runs whose job options differ (the differing options are listed)"),
        [](CompareArgs& a, const OptionValue&) { a.options.force = true; });
  t.add(list_arg("fail-on", "RULES", ValueType::kString, "",
                 "exit 1 when a significant change (verdict better or worse) reaches a threshold: p99:+10%,iops:-5% "
                 "(metrics: iops, bw, mean, p50, p99, p99.9, capacity, knee, slowdown)"),
        [](CompareArgs& a, const OptionValue& v) { a.fail_on = v.list; });
  t.add(choice_arg<CompareFormat>("output-format",
                                  {{"normal", CompareFormat::kNormal},
                                   {"json", CompareFormat::kJson},
                                   {"junit", CompareFormat::kJunit},
                                   {"markdown", CompareFormat::kMarkdown}},
                                  "normal",
                                  "normal is the table; json everything under \"sluice.compare\"; junit a JUnit XML "
                                  "test report (a test case per job and metric, a failure per --fail-on breach) for "
                                  "GitLab, Jenkins and GitHub Actions; markdown a table for a pull-request comment"),
        [](CompareArgs& a, CompareFormat format) { a.format = format; });
  t.add(text_arg("output", "FILE", "",
                 "write the report to FILE instead of stdout; FILE is replaced only once complete (when it cannot be "
                 "written, the report goes to stdout and the exit is 1)"),
        [](CompareArgs& a, const OptionValue& v) { a.output = v.text; });
  t.add(text_arg("db", "PATH", "",
                 "the history database ids and labels are looked up in; default $SLUICE_DB, else "
                 "~/.local/share/sluice/history.db"),
        [](CompareArgs& a, const OptionValue& v) { a.db = v.text; });
  return t;
}

const CommandTable<CompareArgs>& table() {
  static const CommandTable<CompareArgs> kTable = make_table();
  return kTable;
}

std::string render(const CompareReport& report, CompareFormat format) {
  switch (format) {
    case CompareFormat::kJson:
      return compare_json(report).dump(2) + "\n";
    case CompareFormat::kJunit:
      return render_compare_junit(report, static_cast<std::int64_t>(std::time(nullptr)));
    case CompareFormat::kMarkdown:
      return render_compare_markdown(report);
    case CompareFormat::kNormal:
      break;
  }
  return render_compare_text(report);
}

}  // namespace

const CommandInfo& compare_command_info() { return table().info(); }

int compare_command(const std::vector<std::string>& args) {
  const ParsedArgs parsed = parse_arguments(table().info(), args);
  CompareArgs cli;
  table().apply(parsed, cli, nullptr);
  cli.options.fail_on = parse_fail_on(cli.fail_on);
  const HistoryLookup lookup = history_lookup(cli.db);
  std::vector<ResultSet> sets;
  for (const std::string& input : parsed.positionals) sets.push_back(load_result_set(input, lookup));
  const CompareReport report = compare_sets(sets, cli.options);
  write_documents({render(report, cli.format)}, cli.output);
  return report.failed() ? kExitError : kExitOk;
}

}  // namespace sluice
