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

OptionDef with_text(OptionDef def, OptionText text) {
  def.aliases = std::move(text.aliases);
  if (!text.unit.empty()) def.unit = std::move(text.unit);
  def.category = std::move(text.category);
  def.help = std::move(text.help);
  def.reason = std::move(text.reason);
  def.given_flag = text.given_flag;
  return def;
}

OptionDef bool_option(std::string name, const JobField<bool>& member, std::string default_text, OptionText text) {
  auto apply = [member, n = name](JobSpec& job, std::string_view value, const SourcePos& where) {
    member(job) = bool_value(n, value, where);
  };
  return with_text({.name = std::move(name),
                    .type = OptionType::kBool,
                    .default_text = std::move(default_text),
                    .range = "0|1",
                    .flag = true,
                    .apply = std::move(apply)},
                   std::move(text));
}

OptionDef u32_option(std::string name, const JobField<std::uint32_t>& member, std::uint64_t min, std::uint64_t max,
                     std::string default_text, OptionText text) {
  auto apply = [member, min, max, n = name](JobSpec& job, std::string_view value, const SourcePos& where) {
    member(job) = static_cast<std::uint32_t>(unsigned_value(n, value, where, min, max));
  };
  return with_text({.name = std::move(name),
                    .type = OptionType::kUnsigned,
                    .default_text = std::move(default_text),
                    .range = std::to_string(min) + "-" + std::to_string(max),
                    .apply = std::move(apply)},
                   std::move(text));
}

OptionDef i32_option(std::string name, const JobField<std::int32_t>& member, std::int32_t min, std::int32_t max,
                     std::string default_text, OptionText text) {
  // The sign is read here and the magnitude by unsigned_value, so messages read as for unsigned options.
  auto apply = [member, min, max, n = name](JobSpec& job, std::string_view value, const SourcePos& where) {
    const bool negative = !value.empty() && value.front() == '-';
    const std::int64_t limit = negative ? -static_cast<std::int64_t>(min) : static_cast<std::int64_t>(max);
    const auto magnitude = static_cast<std::int64_t>(unsigned_value(
        n, negative ? value.substr(1) : value, where, 0, static_cast<std::uint64_t>(std::max<std::int64_t>(limit, 0))));
    member(job) = static_cast<std::int32_t>(negative ? -magnitude : magnitude);
  };
  return with_text({.name = std::move(name),
                    .type = OptionType::kSigned,
                    .default_text = std::move(default_text),
                    .range = std::to_string(min) + ".." + std::to_string(max),
                    .apply = std::move(apply)},
                   std::move(text));
}

OptionDef u64_option(std::string name, const JobField<std::uint64_t>& member, std::string default_text,
                     OptionText text) {
  auto apply = [member, n = name](JobSpec& job, std::string_view value, const SourcePos& where) {
    member(job) = unsigned_value(n, value, where, 0, UINT64_MAX);
  };
  return with_text({.name = std::move(name),
                    .type = OptionType::kUnsigned,
                    .default_text = std::move(default_text),
                    .apply = std::move(apply)},
                   std::move(text));
}

OptionDef size_option(std::string name, const JobField<std::uint64_t>& member, std::string default_text,
                      OptionText text) {
  auto apply = [member, n = name](JobSpec& job, std::string_view value, const SourcePos& where) {
    member(job) = size_value(n, value, where, job.report.kb_base);
  };
  return with_text({.name = std::move(name),
                    .type = OptionType::kSize,
                    .default_text = std::move(default_text),
                    .unit = "bytes",
                    .apply = std::move(apply)},
                   std::move(text));
}

OptionDef size32_option(std::string name, const JobField<std::uint32_t>& member, std::uint64_t min,
                        std::string default_text, OptionText text) {
  auto apply = [member, min, n = name](JobSpec& job, std::string_view value, const SourcePos& where) {
    const std::uint64_t bytes = size_value(n, value, where, job.report.kb_base);
    if (bytes != 0 && bytes < min) value_error(where, n, value, "0 or at least " + std::to_string(min) + " bytes");
    if (bytes > UINT32_MAX) value_error(where, n, value, "at most 4g");
    member(job) = static_cast<std::uint32_t>(bytes);
  };
  return with_text({.name = std::move(name),
                    .type = OptionType::kSize,
                    .default_text = std::move(default_text),
                    .unit = "bytes",
                    .range = min > 0 ? "0 or " + std::to_string(min) + "-4g" : "0-4g",
                    .apply = std::move(apply)},
                   std::move(text));
}

OptionDef duration_option(std::string name, const JobField<std::chrono::nanoseconds>& member,
                          std::chrono::nanoseconds bare_unit, std::string default_text, OptionText text) {
  auto apply = [member, bare_unit, n = name](JobSpec& job, std::string_view value, const SourcePos& where) {
    member(job) = duration_value(n, value, where, bare_unit);
  };
  return with_text({.name = std::move(name),
                    .type = OptionType::kDuration,
                    .default_text = std::move(default_text),
                    .unit = bare_unit == std::chrono::seconds(1) ? "seconds" : "microseconds",
                    .apply = std::move(apply)},
                   std::move(text));
}

OptionDef string_option(std::string name, const JobField<std::string>& member, std::string default_text,
                        OptionText text) {
  return with_text(
      {.name = std::move(name),
       .type = OptionType::kString,
       .default_text = std::move(default_text),
       .apply = [member](JobSpec& job, std::string_view value, const SourcePos&) { member(job) = std::string(value); }},
      std::move(text));
}

OptionDef unsupported_option(const std::string& name, std::string category, std::string help, const std::string& reason,
                             std::vector<std::string> aliases) {
  return {
      .name = name,
      .aliases = std::move(aliases),
      .type = OptionType::kCustom,
      .category = std::move(category),
      .help = std::move(help),
      .flag = true,  // refused whether or not a value is given
      .supported = false,
      .reason = reason,
      .apply = [n = name, r = reason](
                   JobSpec&, std::string_view value,
                   const SourcePos& where) { value_error(where, n, value, "not supported by sluice (" + r + ")"); },
  };
}

// Options that sluice accepts because it always behaves the way they ask (or their effect does not apply).
OptionDef accepted_flag(std::string name, OptionText text) {
  if (text.category.empty()) text.category = "compat";
  auto apply = [n = name](JobSpec&, std::string_view value, const SourcePos& where) { bool_value(n, value, where); };
  return with_text({.name = std::move(name),
                    .type = OptionType::kBool,
                    .default_text = "0",
                    .range = "0|1",
                    .flag = true,
                    .apply = std::move(apply)},
                   std::move(text));
}

// A fio number option sluice accepts without effect: the value is checked against [min, max], nothing else.
OptionDef accepted_number(std::string name, std::uint64_t min, std::uint64_t max, std::string default_text,
                          OptionText text) {
  if (text.category.empty()) text.category = "compat";
  auto apply = [n = name, min, max](JobSpec&, std::string_view value, const SourcePos& where) {
    unsigned_value(n, value, where, min, max);
  };
  return with_text({.name = std::move(name),
                    .type = OptionType::kUnsigned,
                    .default_text = std::move(default_text),
                    .range = std::to_string(min) + "-" + std::to_string(max),
                    .apply = std::move(apply)},
                   std::move(text));
}

}  // namespace sluice::detail
