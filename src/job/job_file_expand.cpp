// Job-file value expansion: variables, keywords and a small recursive-descent evaluator.
#include "job/job_file_expand.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

namespace sluice {
namespace {

using Real = long double;

bool is_integral(Real v) { return std::isfinite(v) && std::floor(v) == v; }

struct Suffix {
  std::string_view name;
  Real factor;  // sizes: bytes; times: microseconds
};

// Size suffix factor, or nullopt. "k"/"kb" follow kb_base; "kib" is always 1024 (see units.h).
std::optional<Real> size_factor(std::string_view suffix, std::uint32_t kb_base) {
  std::string lower(suffix);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (lower == "b") return 1;
  static constexpr std::string_view kPrefixes = "kmgtpe";
  if (lower.empty() || kPrefixes.find(lower[0]) == std::string_view::npos) return std::nullopt;
  const int power = static_cast<int>(kPrefixes.find(lower[0])) + 1;
  const std::string_view rest = std::string_view(lower).substr(1);
  Real base = 0;
  if (rest.empty() || rest == "b") {
    base = kb_base;
  } else if (rest == "ib") {
    base = 1024;
  } else {
    return std::nullopt;
  }
  return std::pow(base, static_cast<Real>(power));
}

std::optional<Real> time_factor(std::string_view suffix) {
  static constexpr Suffix kTimes[] = {{"ns", 0.001L}, {"us", 1},      {"usec", 1},    {"ms", 1000},
                                      {"msec", 1000}, {"s", 1e6L},    {"sec", 1e6L},  {"m", 60e6L},
                                      {"min", 60e6L}, {"h", 3600e6L}, {"d", 86400e6L}};
  std::string lower(suffix);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const Suffix& s : kTimes) {
    if (s.name == lower) return s.factor;
  }
  return std::nullopt;
}

// A value and whether it is an integer in bc's sense (only integer literals and operations on them), which
// decides between integer and exact division.
struct Num {
  Real value = 0;
  bool integer = true;
};

// Grammar (lowest to highest precedence):
//   expr  := term (('+' | '-') term)*
//   term  := unary (('*' | '/' | '%') unary)*
//   unary := ('-' | '+') unary | power
//   power := atom ('^' unary)?             right-associative
//   atom  := (number | '(' expr ')') suffix?
class Evaluator {
 public:
  Evaluator(std::string_view text, ExprUnits units, std::uint32_t kb_base)
      : text_(text), units_(units), kb_base_(kb_base) {}

  ExprResult run() {
    ExprResult result;
    result.value = expr().value;
    skip_blanks();
    if (pos_ != text_.size()) fail(fmt::format("unexpected '{}'", text_.substr(pos_)));
    if (!std::isfinite(result.value)) fail("result out of range");
    result.used_time_suffix = used_time_suffix_;
    return result;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw UserError(fmt::format("cannot evaluate '{}': {}", text_, what));
  }

  void skip_blanks() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
  }

  bool accept(char c) {
    skip_blanks();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  Num expr() {
    Num value = term();
    while (true) {
      if (accept('+')) {
        const Num right = term();
        value = Num{value.value + right.value, value.integer && right.integer};
      } else if (accept('-')) {
        const Num right = term();
        value = Num{value.value - right.value, value.integer && right.integer};
      } else {
        return value;
      }
    }
  }

  Num term() {
    Num value = unary();
    while (true) {
      if (accept('*')) {
        const Num right = unary();
        value = Num{value.value * right.value, value.integer && right.integer};
      } else if (accept('/')) {
        value = divide(value, unary());
      } else if (accept('%')) {
        value = remainder(value, unary());
      } else {
        return value;
      }
    }
  }

  Num divide(const Num& a, const Num& b) const {
    if (b.value == 0) fail("division by zero");
    const bool integer = a.integer && b.integer;
    return Num{integer ? std::trunc(a.value / b.value) : a.value / b.value, integer};
  }

  Num remainder(const Num& a, const Num& b) const {
    if (b.value == 0) fail("division by zero");
    return Num{std::fmod(a.value, b.value), a.integer && b.integer};
  }

  // Each nesting (a parenthesis, a sign) is a recursion; a limit keeps "((((..." from overflowing the stack.
  static constexpr int kMaxDepth = 256;
  struct Nesting {
    explicit Nesting(Evaluator& e) : e_(e) {
      if (++e_.depth_ > kMaxDepth) e_.fail(fmt::format("nests deeper than {} levels", kMaxDepth));
    }
    ~Nesting() { --e_.depth_; }
    Evaluator& e_;
  };

  Num unary() {
    const Nesting nesting(*this);
    if (accept('-')) {
      Num value = unary();
      value.value = -value.value;
      return value;
    }
    if (accept('+')) return unary();
    return power();
  }

  Num power() {
    const Num base = atom();
    if (!accept('^')) return base;
    const Num exponent = unary();
    const Real value = std::pow(base.value, exponent.value);
    if (!std::isfinite(value)) fail("result out of range");
    return Num{value, base.integer && exponent.integer && exponent.value >= 0};
  }

  Num atom() {
    Num value;
    if (accept('(')) {
      value = expr();
      if (!accept(')')) fail("missing ')'");
    } else {
      value = number();
    }
    value.value *= suffix();
    return value;
  }

  Num number() {
    skip_blanks();
    const std::size_t start = pos_;
    if (text_.substr(pos_, 2) == "0x" || text_.substr(pos_, 2) == "0X") {
      pos_ += 2;
      while (pos_ < text_.size() && std::isxdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
      if (pos_ == start + 2) fail("'0x' without hexadecimal digits");
      const std::string digits(text_.substr(start + 2, pos_ - start - 2));
      return Num{static_cast<Real>(std::strtoull(digits.c_str(), nullptr, 16)), true};
    }
    while (pos_ < text_.size() && (std::isdigit(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '.')) ++pos_;
    if (pos_ == start) {
      fail(pos_ < text_.size() ? fmt::format("expected a number at '{}'", text_.substr(pos_))
                               : "expected a number at the end");
    }
    const std::string digits(text_.substr(start, pos_ - start));
    char* end = nullptr;
    const Real value = std::strtold(digits.c_str(), &end);
    if (end != digits.c_str() + digits.size()) fail(fmt::format("'{}' is not a number", digits));
    return Num{value, digits.find('.') == std::string::npos};
  }

  // Letters right after a number or ')' are a unit suffix.
  Real suffix() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && std::isalpha(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    if (pos_ == start) return 1;
    const std::string_view name = text_.substr(start, pos_ - start);
    if (units_ == ExprUnits::kTime) {
      const auto factor = time_factor(name);
      if (!factor) fail(fmt::format("unknown time unit '{}' (ns, us, ms, s, m, h, d)", name));
      used_time_suffix_ = true;
      return *factor;
    }
    const auto factor = size_factor(name, kb_base_);
    if (!factor) fail(fmt::format("unknown size unit '{}' (k, m, g, t, p, KiB, MiB, ...)", name));
    return *factor;
  }

  std::string_view text_;
  ExprUnits units_;
  std::uint32_t kb_base_;
  std::size_t pos_ = 0;
  int depth_ = 0;
  bool used_time_suffix_ = false;
};

std::optional<std::string> default_env(const std::string& name) {
  const char* value = std::getenv(name.c_str());
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

std::uint64_t read_mb_memory() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return 0;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) / (1024 * 1024);
}

// The keyword starting at `text` ("$ncpus..."), and its length; nullopt when none.
std::optional<std::pair<std::uint64_t, std::size_t>> keyword_at(std::string_view text, const SystemValues& system) {
  const std::pair<std::string_view, std::uint64_t> kKeywords[] = {
      {"$ncpus", system.ncpus}, {"$pagesize", system.pagesize}, {"$mb_memory", system.mb_memory}};
  for (const auto& [name, value] : kKeywords) {
    if (text.substr(0, name.size()) != name) continue;
    const std::size_t after = name.size();
    // "$ncpusx" is not the keyword.
    if (after < text.size() && (std::isalnum(static_cast<unsigned char>(text[after])) || text[after] == '_')) continue;
    return std::make_pair(value, name.size());
  }
  return std::nullopt;
}

bool has_operator(std::string_view text) { return text.find_first_of("+-*/%^()") != std::string_view::npos; }

std::string format_number(Real value, bool keep_fraction) {
  if (!keep_fraction || is_integral(value)) {
    const Real whole = std::trunc(value);
    if (std::fabs(whole) >= 18446744073709551616.0L) throw UserError("result does not fit in 64 bits");
    if (whole < 0) return fmt::format("-{}", static_cast<unsigned long long>(-whole));
    return fmt::format("{}", static_cast<unsigned long long>(whole));
  }
  return fmt::format("{:.6g}", static_cast<double>(value));
}

// One element of a value, evaluated. `paren`: the element is in parentheses (fio's expression form).
std::string evaluate_element(std::string_view element, const OptionDef& def, std::uint32_t kb_base, bool paren) {
  const bool time = def.type == OptionType::kDuration;
  const ExprResult result = evaluate_expression(element, time ? ExprUnits::kTime : ExprUnits::kSize, kb_base);
  const bool keep_fraction =
      def.type == OptionType::kPercent || def.type == OptionType::kFloatList || def.type == OptionType::kCustom;
  if (time && (paren || result.used_time_suffix)) {
    // Microseconds, as fio defines time in expressions; fractions are kept as nanoseconds.
    const Real ns = std::round(result.value * 1000);
    if (ns < 0) throw UserError(fmt::format("'{}' is negative", element));
    return std::fmod(ns, 1000) == 0 ? format_number(ns / 1000, false) + "us" : format_number(ns, false) + "ns";
  }
  return format_number(result.value, keep_fraction);
}

bool is_evaluated_type(OptionType type) { return type != OptionType::kString && type != OptionType::kChoice; }

std::string_view trim_expanded(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return text;
}

}  // namespace

SystemValues SystemValues::current() {
  SystemValues values;
  const long cpus = ::sysconf(_SC_NPROCESSORS_ONLN);
  values.ncpus = cpus > 0 ? static_cast<std::uint64_t>(cpus) : 1;
  const long page = ::sysconf(_SC_PAGESIZE);
  values.pagesize = page > 0 ? static_cast<std::uint64_t>(page) : 4096;
  values.mb_memory = read_mb_memory();
  return values;
}

ExprResult evaluate_expression(std::string_view text, ExprUnits units, std::uint32_t kb_base) {
  return Evaluator(text, units, kb_base).run();
}

Substitution substitute_variables(std::string_view value, const ExpansionContext& context) {
  Substitution out;
  const auto& env = context.env ? context.env : default_env;
  std::size_t i = 0;
  while (i < value.size()) {
    if (value[i] != '$') {
      out.text += value[i++];
      continue;
    }
    if (value.substr(i, 2) == "${") {
      const std::size_t close = value.find('}', i + 2);
      if (close != std::string_view::npos) {
        out.text += env(std::string(value.substr(i + 2, close - i - 2))).value_or("");
        i = close + 1;
        continue;
      }
    } else if (const auto keyword = keyword_at(value.substr(i), context.system)) {
      out.text += std::to_string(keyword->first);
      out.used_keyword = true;
      i += keyword->second;
      continue;
    }
    out.text += value[i++];
  }
  return out;
}

std::string expand_value(std::string_view value, const OptionDef* def, std::uint32_t kb_base,
                         const ExpansionContext& context) {
  const Substitution sub = substitute_variables(value, context);
  if (def == nullptr || !is_evaluated_type(def->type)) return sub.text;
  const bool list = def->type == OptionType::kSizeList || def->type == OptionType::kFloatList;
  std::string out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = list ? sub.text.find(',', start) : std::string::npos;
    const std::string_view element = trim_expanded(
        std::string_view(sub.text).substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    const bool paren = element.starts_with('(');
    // Custom syntaxes (bssplit=4k/50:64k/50) use operator characters as separators.
    const bool keyword_math = sub.used_keyword && has_operator(element) && def->type != OptionType::kCustom;
    if (paren || keyword_math) {
      out += evaluate_element(element, *def, kb_base, paren);
    } else {
      out += element;
    }
    if (comma == std::string::npos) break;
    out += ',';
    start = comma + 1;
  }
  return out;
}

}  // namespace sluice
