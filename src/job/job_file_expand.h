#pragma once
// Value expansion for job files (fio's rules): ${VAR} from the environment, the keywords $ncpus,
// $pagesize and $mb_memory, and arithmetic (+ - * / % ^, parentheses, size or time suffixes on numbers).
// Evaluated by sluice itself; no external bc.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "job/option_table.h"

namespace sluice {

// The machine values behind $ncpus, $pagesize and $mb_memory.
struct SystemValues {
  std::uint64_t ncpus = 1;  // online CPUs
  std::uint64_t pagesize = 4096;
  std::uint64_t mb_memory = 0;  // total memory in MiB
  static SystemValues current();
};

struct ExpansionContext {
  // Environment lookup for ${VAR}; nullopt = unset (expands to "", as in fio). Defaults to ::getenv.
  std::function<std::optional<std::string>(const std::string&)> env;
  SystemValues system = SystemValues::current();
};

// What numbers mean inside an expression: sizes (k, m, g, t, p with kb_base; KiB always 1024) or times
// (ns, us, ms, s, m, h, d, converted to microseconds; a bare number is microseconds, as in fio).
enum class ExprUnits { kSize, kTime };

struct ExprResult {
  long double value = 0;
  bool used_time_suffix = false;  // a time suffix appeared (the result is then in microseconds)
};

// Evaluates `text` as a whole. Integer operands divide and take remainders as integers (like bc); otherwise
// arithmetic is exact to 64 bits of mantissa. Throws UserError("<what is wrong>") without a position.
ExprResult evaluate_expression(std::string_view text, ExprUnits units, std::uint32_t kb_base);

struct Substitution {
  std::string text;
  bool used_keyword = false;  // $ncpus, $pagesize or $mb_memory was replaced
};

// Replaces ${VAR} and the keywords. An unterminated "${" and unknown $words are left as written.
Substitution substitute_variables(std::string_view value, const ExpansionContext& context);

// The value handed to the option table: variables substituted, then evaluated when fio would evaluate it:
// a value in parentheses, or a value that used a keyword and contains an operator. String and choice
// options (filename, rw, ...) are only substituted, never evaluated. A list option (bs=4k,$pagesize*2) is
// evaluated element by element. Throws UserError("<what is wrong>") without a position.
std::string expand_value(std::string_view value, const OptionDef* def, std::uint32_t kb_base,
                         const ExpansionContext& context);

}  // namespace sluice
