#pragma once
// The option table: the single source for parsing (command line and job files), --help, --cmdhelp,
// the docs and the defaults. Each entry knows how to store its value into a JobSpec.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "job/job_spec.h"

namespace sluice {

// kSigned: a number that may be negative (flow); kUnsigned: one that may not.
enum class OptionType {
  kString,
  kBool,
  kUnsigned,
  kSigned,
  kSize,
  kSizeList,
  kDuration,
  kChoice,
  kPercent,
  kFloatList,
  kCustom
};

// One row of the table. Rows are written as aggregates with designated initializers (or returned whole by the
// builders in option_builders.h); name and apply have no default, so a row without them does not compile
// (-Wmissing-field-initializers is an error).
struct OptionDef {
  std::string name;
  std::vector<std::string> aliases = {};
  OptionType type = OptionType::kString;
  std::string default_text = {};  // as the user would write it; "" = none
  std::string unit = {};          // "bytes", "seconds", "percent", ... for --help
  std::string range = {};         // "1-65536", "psync|sync|libaio|io_uring|mmap|null", ...
  std::string category = {};      // "target", "workload", "engine", "time", "rate", "report", ...
  std::string help = {};          // one or two sentences
  bool flag = false;              // may be given without a value (means 1 / true)
  bool supported = true;          // false: fio knows it, sluice refuses it with a clear message
  // Why the option is not supported (supported=false), or why it has no default (default_text "").
  std::string reason = {};
  // Stores the value; throws UserError("<where>: <option>=<value>: <what is wrong>") on a bad value.
  std::function<void(JobSpec&, std::string_view value, const SourcePos& where)> apply;
  // For the few options whose absence means something else than their default: marked when given.
  bool JobSpec::GivenOptions::*given_flag = nullptr;
};

const std::vector<OptionDef>& option_table();

// Finds by name or alias (exact, case-sensitive like fio); nullptr when unknown.
const OptionDef* find_option(std::string_view name);

// The known option nearest to `name` (edit distance), for "did you mean" messages; "" if nothing is close.
std::string nearest_option(std::string_view name);

// Looks the option up and applies it, recording it in job.given_options / option_pos.
// Throws UserError: unknown option (with the nearest), unsupported option, or bad value.
void apply_option(JobSpec& job, std::string_view name, std::string_view value, const SourcePos& where);

// Help text for all options, grouped by category (name, aliases, type, default, unit, range, help).
std::string render_options_help();
// Help for one option (--cmdhelp=NAME); throws UserError with the nearest name when unknown.
std::string render_option_help(std::string_view name);

}  // namespace sluice
