// Shared value parsers and OptionDef builders for the per-category option tables.
#include "job/option_builders.h"

#include <algorithm>

#include "job/units.h"

namespace sluice::detail {

std::string option_context(const SourcePos& where, std::string_view name, std::string_view value) {
  std::string text;
  if (where.file.empty()) {
    text = "--";
  } else {
    text = where.describe() + ": ";
  }
  text.append(name);
  if (!value.empty()) {  // a flag given alone ("--verify") is quoted as given
    text += '=';
    text.append(value);
  }
  return text;
}

void value_error(const SourcePos& where, std::string_view name, std::string_view value, std::string_view what) {
  throw UserError(option_context(where, name, value) + ": " + std::string(what));
}

std::uint64_t size_value(std::string_view name, std::string_view value, const SourcePos& where, std::uint32_t kb_base) {
  const auto bytes = parse_size(value, kb_base);
  if (!bytes) value_error(where, name, value, kNotASize);
  return *bytes;
}

std::uint64_t size_part(std::string_view name, std::string_view part, std::string_view whole, const SourcePos& where,
                        std::uint32_t kb_base) {
  const auto bytes = parse_size(part, kb_base);
  if (!bytes) value_error(where, name, whole, kNotASize);
  return *bytes;
}

std::uint64_t unsigned_value(std::string_view name, std::string_view value, const SourcePos& where, std::uint64_t min,
                             std::uint64_t max) {
  const auto number = parse_unsigned(value);
  if (!number) value_error(where, name, value, "not a whole number");
  if (*number < min || *number > max) {
    value_error(where, name, value, "out of range " + std::to_string(min) + "-" + std::to_string(max));
  }
  return *number;
}

bool bool_value(std::string_view name, std::string_view value, const SourcePos& where) {
  const auto flag = parse_bool(value);
  if (!flag) value_error(where, name, value, "not a boolean; use 1 or 0 (true/false, yes/no, on/off)");
  return *flag;
}

std::chrono::nanoseconds duration_value(std::string_view name, std::string_view value, const SourcePos& where,
                                        std::chrono::nanoseconds bare_unit) {
  const auto duration = parse_duration(value, bare_unit);
  if (!duration) {
    const std::string bare = bare_unit == std::chrono::seconds(1) ? "seconds" : "microseconds";
    value_error(where, name, value,
                "not a duration; durations look like 30, 500ms, 2m, 1h (a bare number is in " + bare + ")");
  }
  return *duration;
}

SizeOrPercent size_or_percent_value(std::string_view name, std::string_view value, const SourcePos& where,
                                    std::uint32_t kb_base) {
  SizeOrPercent result;
  if (!value.empty() && value.back() == '%') {
    const auto percent = parse_percent(value);
    if (!percent) value_error(where, name, value, "a percentage must be above 0 and at most 100");
    result.percent = *percent;
  } else {
    result.bytes = size_value(name, value, where, kb_base);
  }
  return result;
}

std::size_t choice_value(std::string_view name, std::string_view value, const SourcePos& where,
                         const std::vector<std::string>& choices) {
  const auto it = std::find(choices.begin(), choices.end(), value);
  if (it != choices.end()) return static_cast<std::size_t>(it - choices.begin());
  std::string what = "not one of ";
  for (std::size_t i = 0; i < choices.size(); ++i) {
    if (i > 0) what += ", ";
    what += choices[i];
  }
  const std::string nearest = nearest_of(value, choices);
  if (!nearest.empty()) what += "; did you mean '" + nearest + "'?";
  value_error(where, name, value, what);
}

OptionDef bool_option(std::string name, bool JobSpec::*member, std::string default_text) {
  OptionDef def;
  def.name = std::move(name);
  def.type = OptionType::kBool;
  def.default_text = std::move(default_text);
  def.range = "0|1";
  def.flag = true;
  def.apply = [member, n = def.name](JobSpec& job, std::string_view value, const SourcePos& where) {
    job.*member = bool_value(n, value, where);
  };
  return def;
}

OptionDef u32_option(std::string name, std::uint32_t JobSpec::*member, std::uint64_t min, std::uint64_t max,
                     std::string default_text, std::string unit) {
  OptionDef def;
  def.name = std::move(name);
  def.type = OptionType::kUnsigned;
  def.default_text = std::move(default_text);
  def.unit = std::move(unit);
  def.range = std::to_string(min) + "-" + std::to_string(max);
  def.apply = [member, min, max, n = def.name](JobSpec& job, std::string_view value, const SourcePos& where) {
    job.*member = static_cast<std::uint32_t>(unsigned_value(n, value, where, min, max));
  };
  return def;
}

OptionDef u64_option(std::string name, std::uint64_t JobSpec::*member, std::string default_text) {
  OptionDef def;
  def.name = std::move(name);
  def.type = OptionType::kUnsigned;
  def.default_text = std::move(default_text);
  def.apply = [member, n = def.name](JobSpec& job, std::string_view value, const SourcePos& where) {
    job.*member = unsigned_value(n, value, where, 0, UINT64_MAX);
  };
  return def;
}

OptionDef size_option(std::string name, std::uint64_t JobSpec::*member, std::string default_text) {
  OptionDef def;
  def.name = std::move(name);
  def.type = OptionType::kSize;
  def.default_text = std::move(default_text);
  def.unit = "bytes";
  def.apply = [member, n = def.name](JobSpec& job, std::string_view value, const SourcePos& where) {
    job.*member = size_value(n, value, where, job.kb_base);
  };
  return def;
}

OptionDef size32_option(std::string name, std::uint32_t JobSpec::*member, std::uint64_t min,
                        std::string default_text) {
  OptionDef def;
  def.name = std::move(name);
  def.type = OptionType::kSize;
  def.default_text = std::move(default_text);
  def.unit = "bytes";
  def.range = min > 0 ? "0 or " + std::to_string(min) + "-4g" : "0-4g";
  def.apply = [member, min, n = def.name](JobSpec& job, std::string_view value, const SourcePos& where) {
    const std::uint64_t bytes = size_value(n, value, where, job.kb_base);
    if (bytes != 0 && bytes < min) value_error(where, n, value, "0 or at least " + std::to_string(min) + " bytes");
    if (bytes > UINT32_MAX) value_error(where, n, value, "at most 4g");
    job.*member = static_cast<std::uint32_t>(bytes);
  };
  return def;
}

OptionDef duration_option(std::string name, std::chrono::nanoseconds JobSpec::*member,
                          std::chrono::nanoseconds bare_unit, std::string default_text) {
  OptionDef def;
  def.name = std::move(name);
  def.type = OptionType::kDuration;
  def.default_text = std::move(default_text);
  def.unit = bare_unit == std::chrono::seconds(1) ? "seconds" : "microseconds";
  def.apply = [member, bare_unit, n = def.name](JobSpec& job, std::string_view value, const SourcePos& where) {
    job.*member = duration_value(n, value, where, bare_unit);
  };
  return def;
}

OptionDef string_option(std::string name, std::string JobSpec::*member, std::string default_text) {
  OptionDef def;
  def.name = std::move(name);
  def.type = OptionType::kString;
  def.default_text = std::move(default_text);
  def.apply = [member](JobSpec& job, std::string_view value, const SourcePos&) { job.*member = std::string(value); };
  return def;
}

OptionDef unsupported_option(std::string name, std::string category, std::string help, std::string reason,
                             std::vector<std::string> aliases) {
  OptionDef def;
  def.name = std::move(name);
  def.aliases = std::move(aliases);
  def.type = OptionType::kCustom;
  def.category = std::move(category);
  def.help = std::move(help);
  def.reason = std::move(reason);
  def.supported = false;
  def.flag = true;  // refused whether or not a value is given
  def.apply = [n = def.name, r = def.reason](JobSpec&, std::string_view value, const SourcePos& where) {
    value_error(where, n, value, "not supported by sluice (" + r + ")");
  };
  return def;
}

// Options that sluice accepts because it always behaves the way they ask (or their effect does not apply).
OptionDef accepted_flag(std::string name, std::string help, std::vector<std::string> aliases) {
  OptionDef def;
  def.name = std::move(name);
  def.aliases = std::move(aliases);
  def.type = OptionType::kBool;
  def.category = "compat";
  def.default_text = "0";
  def.range = "0|1";
  def.flag = true;
  def.help = std::move(help);
  def.apply = [n = def.name](JobSpec&, std::string_view value, const SourcePos& where) { bool_value(n, value, where); };
  return def;
}

// A fio number option sluice accepts without effect: the value is checked against [min, max], nothing else.
OptionDef accepted_number(std::string name, std::uint64_t min, std::uint64_t max, std::string default_text,
                          std::string unit, std::string help) {
  OptionDef def = accepted_flag(std::move(name), std::move(help));
  def.type = OptionType::kUnsigned;
  def.flag = false;
  def.default_text = std::move(default_text);
  def.range = std::to_string(min) + "-" + std::to_string(max);
  def.unit = std::move(unit);
  def.apply = [n = def.name, min, max](JobSpec&, std::string_view value, const SourcePos& where) {
    unsigned_value(n, value, where, min, max);
  };
  return def;
}

}  // namespace sluice::detail
