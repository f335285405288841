// `sluice COMMAND --help`, generated from the command's declaration (command_table.h).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "cli/command_table.h"
#include "job/option_table.h"
#include "job/units.h"

namespace sluice {
namespace {

constexpr std::size_t kColumn = 24;  // where the help text of an option starts
constexpr std::size_t kWidth = 110;

void wrap(std::string& out, const std::string& text, std::size_t used) { out += wrap_help(text, kColumn, used); }

// The accepted values beyond the unit: a range, the choices, "comma list of".
std::string help_range_text(const OptionInfo& o) {
  const ValueType type = o.type == ValueType::kList ? o.element : o.type;
  std::string text;
  if (type == ValueType::kUnsigned) {
    text = o.max == std::numeric_limits<std::uint64_t>::max() ? fmt::format("at least {}", o.min)
                                                              : fmt::format("{}-{}", o.min, o.max);
  } else if (type == ValueType::kSize && o.min > 1) {
    text = fmt::format("at least {}", format_bytes(static_cast<double>(o.min)));
  } else if (type == ValueType::kChoice) {
    text = fmt::format("{}", fmt::join(o.choices, "|"));
  }
  if (o.type == ValueType::kList) text = text.empty() ? "a comma list" : "a comma list, each " + text;
  return text;
}

std::string option_line(const OptionInfo& o) {
  std::string out = "  " + option_names_text(o);
  if (out.size() + 1 >= kColumn) {
    out += "\n" + std::string(kColumn, ' ');
  } else {
    out += std::string(kColumn - out.size(), ' ');
  }
  wrap(out, option_help_text(o), kColumn);
  return out;
}

std::string usage_line(const CommandInfo& c) {
  std::string line = "usage: sluice " + c.name + " [options]";
  for (const PositionalInfo& p : c.positionals) line += p.required ? " " + p.name : " [" + p.name + "]";
  if (c.passes_job_options) {
    line += c.pass_through_after.empty() ? " [job options]" : " [--" + c.pass_through_after + " [job options]]";
  }
  return line + "\n";
}

}  // namespace

std::string option_names_text(const OptionInfo& o) {
  std::string names = "--" + o.name;
  for (const std::string& alias : o.aliases) names += ", --" + alias;
  if (o.type != ValueType::kFlag) names += o.bare_value.empty() ? "=" + o.value_name : "[=" + o.value_name + "]";
  for (const std::string& d : o.dash_names) names += ", " + d + (o.type == ValueType::kFlag ? "" : " " + o.value_name);
  return names;
}

std::string option_help_text(const OptionInfo& o) {
  std::string details;
  const auto add = [&details](const std::string& part) {
    if (part.empty()) return;
    details += details.empty() ? part : "; " + part;
  };
  add(o.unit);
  add(help_range_text(o));
  if (!o.default_text.empty()) add("default " + o.default_text);
  if (o.repeatable) add("repeatable");
  return details.empty() ? o.help : o.help + " (" + details + ")";
}

std::string usage_text(const CommandInfo& c) { return usage_line(c).substr(std::string("usage: ").size()); }

std::string wrap_help(const std::string& text, std::size_t indent, std::size_t used) {
  std::string out;
  std::size_t column = used;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    start = end + 1;
    if (word.empty()) continue;
    if (column > indent && column + 1 + word.size() > kWidth) {
      out += "\n" + std::string(indent, ' ');
      column = indent;
    } else if (column > indent) {
      out += ' ';
      ++column;
    }
    out += word;
    column += word.size();
  }
  return out + '\n';
}

std::string render_command_help(const CommandInfo& c) {
  std::string out = usage_line(c) + "\n" + c.description;
  if (!c.positionals.empty()) {
    out += "\nArguments:\n";
    for (const PositionalInfo& p : c.positionals) {
      std::string line = "  " + p.name;
      line += std::string(kColumn > line.size() ? kColumn - line.size() : 1, ' ');
      wrap(line, p.help + (p.required ? "" : " (optional)"), line.size());
      out += line;
    }
  }
  out += "\nOptions:\n";
  for (const OptionInfo& o : c.options) out += option_line(o);
  out += "  -h, --help            this text\n";
  if (!c.refused.empty()) {
    std::string refused;
    for (const RefusedOption& r : c.refused)
      refused += (refused.empty() ? "" : ", ") + r.spelling + " (" + r.what + ")";
    out += "\n" + wrap_help(fmt::format("Not implemented, refused by name: {}.", refused), 0, 0);
  }
  if (c.passes_job_options && !c.lists_job_options) {
    const std::string where = c.pass_through_after.empty() ? "" : "after --" + c.pass_through_after + ", ";
    out += "\n" + wrap_help(fmt::format("Job options: {}every job option of sluice run is accepted too, with fio's "
                                        "meaning (`sluice run --help` lists them).",
                                        where),
                            0, 0);
  }
  const bool durations = std::any_of(c.options.begin(), c.options.end(),
                                     [](const OptionInfo& o) { return o.type == ValueType::kDuration; });
  if (durations)
    out += "\nDurations of the options above need a unit (10ms, 2s, 500us, 2m): a bare number is refused.\n";
  if (!c.notes.empty()) out += "\n" + c.notes;
  if (c.lists_job_options) out += "\nJob options:\n" + render_options_help();
  return out;
}

}  // namespace sluice
