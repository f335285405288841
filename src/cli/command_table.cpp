// The parser of the command framework: turns arguments into checked values of a command's option table.
#include "cli/command_table.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "cli/command_args.h"
#include "common/error.h"
#include "common/nearest.h"
#include "job/command_line.h"
#include "job/option_table.h"
#include "job/units.h"

namespace sluice {
namespace {

constexpr std::string_view kDurationHint = "add a unit, e.g. 10ms, 2s, 500us, 2m";

[[noreturn]] void fail(std::string_view where, std::string_view what) {
  throw UserError(fmt::format("{}: {}", where, what));
}

std::string see_help(const CommandInfo& command) {
  return fmt::format("sluice {} --help lists the options", command.name);
}

const OptionInfo* find_own(const CommandInfo& command, std::string_view name, std::size_t& index) {
  for (std::size_t i = 0; i < command.options.size(); ++i) {
    const OptionInfo& o = command.options[i];
    if (o.name == name || std::find(o.aliases.begin(), o.aliases.end(), name) != o.aliases.end()) {
      index = i;
      return &o;
    }
  }
  return nullptr;
}

// The own option nearest to `name`, "" when none is close (nearest_of's rule).
std::string nearest_own(const CommandInfo& command, std::string_view name) {
  std::vector<std::string> names = {"help"};
  for (const OptionInfo& o : command.options) {
    names.push_back(o.name);
    names.insert(names.end(), o.aliases.begin(), o.aliases.end());
  }
  return nearest_of(name, names);
}

[[noreturn]] void unknown_option(const CommandInfo& command, const std::string& arg, std::string_view name,
                                 bool before_marker) {
  std::string what = fmt::format("unknown option for {}", command.name);
  if (before_marker) what += fmt::format(" (job options go after --{})", command.pass_through_after);
  const std::string nearest = nearest_own(command, name);
  if (!nearest.empty()) {
    what += fmt::format("; did you mean --{}? ({})", nearest, see_help(command));
  } else {
    what += "; " + see_help(command);
  }
  fail(arg.substr(0, arg.find('=')), what);
}

// An option of sluice run's own table (--minimal, --parse-only, ...) given to a command that passes job options
// on: named as run's, not taken for a job option that does not exist.
void refuse_run_option(const CommandInfo& command, const std::string& arg, std::string_view name) {
  std::size_t index = 0;
  if (find_option(name) != nullptr || find_own(run_command_info(), name, index) == nullptr) return;
  fail(arg.substr(0, arg.find('=')), fmt::format("one of sluice run's own options (fio's global options among them), "
                                                 "which sluice run (and the fio link) takes; sluice {} does not ({})",
                                                 command.name, see_help(command)));
}

bool is_bare_number(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return (c >= '0' && c <= '9') || c == '.'; });
}

std::string range_text(const OptionInfo& o, ValueType type) {
  if (type == ValueType::kSize) return fmt::format("at least {}", format_bytes(static_cast<double>(o.min)));
  if (o.max == std::numeric_limits<std::uint64_t>::max()) return fmt::format("at least {}", o.min);
  return fmt::format("{}-{}", o.min, o.max);
}

// Checks one scalar (an option's value, or one element of a list) and fills `out`.
void check_scalar(const OptionInfo& o, ValueType type, std::string_view where, std::string_view text,
                  OptionValue& out) {
  switch (type) {
    case ValueType::kString:
    case ValueType::kFlag:
    case ValueType::kList:
      return;
    case ValueType::kUnsigned: {
      const auto n = parse_unsigned(text);
      if (!n || *n < o.min || *n > o.max) fail(where, fmt::format("not a number in {}", range_text(o, type)));
      out.number = *n;
      return;
    }
    case ValueType::kSize: {
      const auto n = parse_size(text);
      if (!n) fail(where, "not a size; sizes look like 4k, 1m, 10g");
      if (*n < o.min || *n > o.max) fail(where, fmt::format("not a size of {}", range_text(o, type)));
      out.number = *n;
      return;
    }
    case ValueType::kDuration: {
      if (is_bare_number(text))
        fail(where, fmt::format("{} (sluice's own durations always name their unit)", kDurationHint));
      const auto d = parse_duration(text, std::chrono::nanoseconds(1));
      if (!d) fail(where, fmt::format("not a duration; {}", kDurationHint));
      if (d->count() <= 0) fail(where, "not a positive duration");
      out.duration = *d;
      return;
    }
    case ValueType::kChoice: {
      const auto it = std::find(o.choices.begin(), o.choices.end(), text);
      if (it != o.choices.end()) {
        out.choice = static_cast<std::size_t>(it - o.choices.begin());
        return;
      }
      std::string what = fmt::format("not one of {}", fmt::join(o.choices, ", "));
      const std::string nearest = nearest_of(text, o.choices);
      if (!nearest.empty()) what += fmt::format("; did you mean {}?", nearest);
      fail(where, what);
    }
  }
}

std::vector<std::string> split_commas(std::string_view text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    out.emplace_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

bool has_dash_names(const CommandInfo& command) {
  return std::any_of(command.options.begin(), command.options.end(),
                     [](const OptionInfo& o) { return !o.dash_names.empty(); });
}

// The own option whose dash name is the longest prefix of `text` ("-i0" -> "-i"); sets `spelled`.
const OptionInfo* find_dash(const CommandInfo& command, std::string_view text, std::size_t& index,
                            std::string& spelled) {
  const OptionInfo* best = nullptr;
  for (std::size_t i = 0; i < command.options.size(); ++i) {
    for (const std::string& d : command.options[i].dash_names) {
      if (text.rfind(d, 0) == 0 && d.size() > spelled.size()) {
        best = &command.options[i];
        index = i;
        spelled = d;
      }
    }
  }
  return best;
}

[[noreturn]] void unknown_dash(const CommandInfo& command, std::string_view text) {
  for (const RefusedOption& r : command.refused) {
    if (text.rfind(r.spelling, 0) == 0) {
      fail(r.spelling, fmt::format("{} is an option of the original {} that sluice {} does not implement ({})", r.what,
                                   command.name, command.name, see_help(command)));
    }
  }
  fail(text.substr(0, text.size() > 1 && text[1] == '+' ? 3 : 2),
       fmt::format("unknown option for {}; {}", command.name, see_help(command)));
}

// One getopt-style group ("-Ra", "-i0", "-i 0", "-+u") at args[i]; returns the index of the last argument used.
std::size_t parse_dash_group(const CommandInfo& command, const std::vector<std::string>& args, std::size_t i,
                             ParsedArgs& parsed) {
  const std::string& arg = args[i];
  for (std::size_t pos = 1; pos < arg.size();) {
    const std::string text = "-" + arg.substr(pos);
    std::size_t index = 0;
    std::string spelled;
    const OptionInfo* own = find_dash(command, text, index, spelled);
    if (own == nullptr) unknown_dash(command, text);
    pos += spelled.size() - 1;
    if (own->type == ValueType::kFlag) {
      parsed.items.push_back(ParsedItem{own, index, check_value(*own, spelled, ""), {}});
      continue;
    }
    std::string value = arg.substr(pos);
    std::string where = spelled + value;
    if (value.empty() && i + 1 < args.size()) {
      value = args[++i];
      where = spelled + " " + value;
    }
    if (value.empty()) fail(spelled, fmt::format("needs a value; use {} {}", spelled, own->value_name));
    parsed.items.push_back(ParsedItem{own, index, check_value(*own, std::move(where), std::move(value)), {}});
    break;
  }
  return i;
}

bool wants_help(const std::vector<std::string>& args) {
  for (const std::string& arg : args) {
    if (arg == "--") return false;
    if (arg == "-h" || arg == "--help") return true;
  }
  return false;
}

void check_positionals(const CommandInfo& command, const std::vector<std::string>& positionals) {
  const bool repeats = !command.positionals.empty() && command.positionals.back().repeats;
  if (positionals.size() > command.positionals.size() && !repeats) {
    const std::string& extra = positionals[command.positionals.size()];
    if (command.positionals.empty()) {
      fail(extra, fmt::format("unexpected argument; {} takes options only{}", command.name,
                              command.passes_job_options ? " (job options as --name=value, not job files)" : ""));
    }
    std::string names;
    for (const PositionalInfo& p : command.positionals)
      names += (names.empty() ? "" : " ") + (p.required ? p.name : "[" + p.name + "]");
    fail(extra, fmt::format("unexpected argument; {} takes {} and options", command.name, names));
  }
  for (std::size_t i = positionals.size(); i < command.positionals.size(); ++i) {
    if (command.positionals[i].required) {
      throw UserError(fmt::format("{} needs {} ({})", command.name, command.positionals[i].name, see_help(command)));
    }
  }
}

}  // namespace

CommandInfo command_info(std::string name, std::string summary, std::string description) {
  CommandInfo info;
  info.name = std::move(name);
  info.summary = std::move(summary);
  info.description = std::move(description);
  return info;
}

OptionValue check_value(const OptionInfo& option, std::string where, std::string text) {
  OptionValue out;
  out.where = std::move(where);
  out.text = std::move(text);
  if (option.type != ValueType::kList) {
    check_scalar(option, option.type, out.where, out.text, out);
    return out;
  }
  for (std::string& element : split_commas(out.text)) {
    if (element.empty()) fail(out.where, "an empty element in the comma list");
    OptionValue scratch;
    check_scalar(option, option.element, out.where, element, scratch);
    out.list.push_back(std::move(element));
  }
  return out;
}

ParsedArgs parse_arguments(const CommandInfo& command, const std::vector<std::string>& args) {
  if (wants_help(args)) throw HelpRequested(command);
  ParsedArgs parsed;
  bool passing = command.passes_job_options && command.pass_through_after.empty();
  bool positional_only = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (positional_only || arg.empty() || arg[0] != '-' || arg == "-") {
      parsed.positionals.push_back(arg);
      continue;
    }
    if (arg == "--") {
      positional_only = true;
      continue;
    }
    if (arg[1] != '-' && has_dash_names(command)) {
      i = parse_dash_group(command, args, i, parsed);
      continue;
    }
    if (arg.size() < 3 || arg[1] != '-') fail(arg, "unknown option; options look like --name=value");
    const std::size_t eq = arg.find('=');
    const std::string name = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    std::size_t index = 0;
    const OptionInfo* own = find_own(command, name, index);
    if (own != nullptr && own->before_pass_through && passing) own = nullptr;  // the job's option now
    if (own == nullptr) {
      if (passing && command.name != "run") refuse_run_option(command, arg, name);
      const bool job_option = find_option(name) != nullptr || is_job_command_line_option(name);
      if (passing && (job_option || nearest_own(command, name).empty())) {
        parsed.items.push_back(ParsedItem{nullptr, 0, {}, arg});
        continue;
      }
      unknown_option(command, arg, name, command.passes_job_options && !passing);
    }
    const std::string shown = "--" + name;
    if (own->type == ValueType::kFlag) {
      if (eq != std::string::npos) fail(arg, "takes no value");
      parsed.items.push_back(ParsedItem{own, index, check_value(*own, arg, ""), {}});
      if (own->name == command.pass_through_after) passing = command.passes_job_options;
      continue;
    }
    std::string where = arg;
    std::string value;
    if (eq != std::string::npos) {
      value = arg.substr(eq + 1);
    } else if (i + 1 < args.size() && args[i + 1].rfind("--", 0) != 0) {
      value = args[++i];
      where = shown + " " + value;
    }
    if (value.empty()) value = own->bare_value;
    if (value.empty()) fail(shown, fmt::format("needs a value; use {}={}", shown, own->value_name));
    parsed.items.push_back(ParsedItem{own, index, check_value(*own, std::move(where), std::move(value)), {}});
  }
  check_positionals(command, parsed.positionals);
  return parsed;
}

}  // namespace sluice
