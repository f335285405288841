#pragma once
// The command framework: a subcommand declares its positional arguments and an option table (name, type,
// unit, default, range, help, apply) once; the parser, `sluice COMMAND --help`, did-you-mean and value
// validation all come from that declaration (see command_help.cpp, command_registry.h).
//
// Units: a duration option of sluice's own (--slo, --budget, --round, ...) must name its unit ("10ms", "2m");
// a bare number is refused. Job options passed on to the run parser keep fio's meaning (runtime=10 is seconds).
#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace sluice {

enum class ValueType {
  kString,    // any non-empty text
  kFlag,      // no value: --keep
  kUnsigned,  // an integer within [min, max]
  kSize,      // job/units.h parse_size ("4k", "1m"), within [min, max] bytes
  kDuration,  // "10ms", "1s", "500us", "2m": positive, with a unit
  kChoice,    // one of `choices`
  kList,      // comma-separated; each element checked as `element` (kString, kUnsigned or kChoice)
};

struct OptionInfo {
  std::string name;                  // without the leading "--"
  std::vector<std::string> aliases;  // also without "--"
  ValueType type = ValueType::kString;
  ValueType element = ValueType::kString;  // kList only
  std::string value_name;                  // "T", "S", "N", "FILE": shown as --name=T in help
  std::string unit;                        // for help: "bytes", "duration"
  std::string default_text;                // as the user would write it; "" = no default (help says why)
  std::uint64_t min = 0;                   // kUnsigned, kSize, list of kUnsigned
  std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  std::vector<std::string> choices;  // kChoice, list of kChoice
  std::string help;
  bool repeatable = false;  // may be given several times (each one is applied); else the last wins
  // The value of a value-taking option given bare ("--cmdhelp" = "--cmdhelp=all"); "" = a value is needed.
  std::string bare_value;
  // Only before the pass-through marker (CommandInfo::pass_through_after); after it the job takes the name.
  bool before_pass_through = false;
  // A foreign tool's single-dash spellings ("-a", "-+u"), read getopt-style: flags may be grouped ("-Ra"), a
  // value may be attached ("-s256k") or be the next argument ("-s 256k").
  std::vector<std::string> dash_names;
};

// One of the foreign tool's options that the command does not implement: refused by name, never ignored.
struct RefusedOption {
  std::string spelling;  // "-t"
  std::string what;      // "throughput mode"
};

struct PositionalInfo {
  std::string name;  // "DIR"
  std::string help;
  bool required = false;
  bool repeats = false;  // the last positional only: takes every further argument ("C...")
};

struct CommandInfo {
  std::string name;
  std::string summary;      // one line, for `sluice help`
  std::string description;  // paragraphs for `sluice NAME --help`
  std::vector<PositionalInfo> positionals;
  std::vector<OptionInfo> options;
  // Options not in `options` go to sluice run's parser (job options) instead of being refused; when
  // `pass_through_after` names a flag, only after that flag.
  bool passes_job_options = false;
  std::string pass_through_after;
  // sluice run: its --help, man page and completion list every job option (job/option_table.h) after its own.
  bool lists_job_options = false;
  std::string notes;                   // a closing paragraph of the help (defaults that differ from sluice run, ...)
  std::vector<RefusedOption> refused;  // single-dash spellings refused by name (with dash_names options)
};

// A CommandInfo with name, summary and description; the caller sets the rest.
CommandInfo command_info(std::string name, std::string summary, std::string description);

// A value that passed its type's checks. `where` is the argument as the user wrote it ("--slo=10ms").
struct OptionValue {
  std::string where;
  std::string text;
  std::uint64_t number = 0;              // kUnsigned, kSize
  std::chrono::nanoseconds duration{0};  // kDuration
  std::size_t choice = 0;                // kChoice: index into choices (a TypedChoice maps it to its value)
  std::vector<std::string> list;         // kList: the elements, checked
};

// One argument in command-line order: an own option, or an argument passed on to the run parser.
struct ParsedItem {
  const OptionInfo* option = nullptr;  // nullptr: `passed_on`
  std::size_t index = 0;               // of `option` in CommandInfo::options
  OptionValue value;
  std::string passed_on;
};

struct ParsedArgs {
  std::vector<ParsedItem> items;
  std::vector<std::string> positionals;
};

// What parse_arguments throws when -h or --help is among the arguments: the framework's answer to --help, so
// that no command answers it itself. The registry (command_registry.cpp) catches it around every command and
// prints render_command_help(command()) to stdout, exit code 0. `command` is the table being parsed, so a command
// that parses a second table (a lab action's) gets that table's help. Deliberately not a std::exception: a
// `catch (const std::exception&)` meant for failures never takes it for one.
class HelpRequested {
 public:
  explicit HelpRequested(const CommandInfo& command) noexcept : command_(&command) {}
  const CommandInfo& command() const noexcept { return *command_; }

 private:
  const CommandInfo* command_;  // the caller's table, which outlives the parse
};

// Parses the arguments after the command name: --name=value, --name value (for options with a value),
// --flag, `--` (everything after it is positional), and where the command declares dash_names, single-dash
// groups as getopt reads them. -h or --help before any `--` throws HelpRequested (nothing else is checked
// then). Throws UserError naming the option:
// unknown option (with a suggestion only when one is close), missing value, value out of range, a choice
// not in the list (with the nearest), a bare number for a duration, missing or extra positionals.
// The result points into `command`, which must outlive it (a temporary table is refused at compile time).
ParsedArgs parse_arguments(const CommandInfo& command, const std::vector<std::string>& args);
ParsedArgs parse_arguments(const CommandInfo&& command, const std::vector<std::string>& args) = delete;

// Checks one value against the option's type (what parse_arguments does for each option). Throws UserError.
OptionValue check_value(const OptionInfo& option, std::string where, std::string text);

// `sluice NAME --help`: usage line, description, positionals, every option with its default, unit, range and
// help, and where job options are accepted, a pointer to `sluice run --help`.
std::string render_command_help(const CommandInfo& command);

// An option's names as --help writes them ("--threads, --num-threads=N, -t N"), and its help with the accepted
// values ("... (1-4096; default 1)"): one source for --help, the man pages and the shell completion.
std::string option_names_text(const OptionInfo& option);
std::string option_help_text(const OptionInfo& option);
// The usage line without "usage: " ("sluice quick [options] [PATH]").
std::string usage_text(const CommandInfo& command);

// `text` word-wrapped for help (110 columns), continuation lines indented by `indent`; `used` is the width
// already taken on the first line. Ends with a newline.
std::string wrap_help(const std::string& text, std::size_t indent, std::size_t used);

// One word of a typed choice and the value it stands for.
template <typename T>
struct ChoiceOf {
  std::string name;
  T value;
};

// A kChoice option whose value is a T (an enum, a bool): values[i] is what info.choices[i] means, both built
// from one list of ChoiceOf (choice_arg<T> in command_options.h), so a word and its value cannot drift apart.
template <typename T>
struct TypedChoice {
  OptionInfo info;
  std::vector<T> values;
};

// An option table bound to the struct `Options` that a command fills. add() keeps the declaration and the
// apply function together, so help and parser cannot disagree.
template <typename Options>
class CommandTable {
 public:
  using Apply = std::function<void(Options&, const OptionValue&)>;

  explicit CommandTable(CommandInfo info) : info_(std::move(info)) {}

  // Declares an option; `apply` stores a checked value (it may throw UserError naming value.where).
  void add(OptionInfo option, Apply apply) {
    info_.options.push_back(std::move(option));
    apply_.push_back(std::move(apply));
  }

  // Declares a typed choice; `apply` gets the value of the word given, never its position in the list.
  template <typename T>
  void add(TypedChoice<T> option, std::type_identity_t<std::function<void(Options&, const T&)>> apply) {
    add(std::move(option.info),
        [values = std::move(option.values), apply = std::move(apply)](Options& options, const OptionValue& value) {
          apply(options, values.at(value.choice));
        });
  }

  const CommandInfo& info() const noexcept { return info_; }

  // Applies the parsed options to `options` in command-line order; arguments for the run parser are
  // appended to `passed_on` (may be nullptr when the command passes nothing on).
  void apply(const ParsedArgs& parsed, Options& options, std::vector<std::string>* passed_on) const {
    for (const ParsedItem& item : parsed.items) {
      if (item.option == nullptr) {
        if (passed_on != nullptr) passed_on->push_back(item.passed_on);
        continue;
      }
      apply_[item.index](options, item.value);
    }
  }

 private:
  CommandInfo info_;
  std::vector<Apply> apply_;
};

}  // namespace sluice
