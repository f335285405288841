#include "lab/model_faults.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cerrno>

#include "common/nearest.h"
#include "job/units.h"

namespace sluice {
namespace {

constexpr const char* kRuleShape = "a rule is OP:ACTION[:TRIGGER]..., e.g. read:eio:at=1m";

// "unknown action 'eoi'; did you mean 'eio'?", or with the nearest word when none is close enough to guess.
// faultfs's words (tests/support/faultfs) map to these rules' words.
std::string faultfs_word(std::string_view word) {
  if (word == "fsync") return "flush";
  if (word == "delay") return "stall";
  if (word == "after_ms") return "after_time";
  return "";
}

std::string unknown_word(std::string_view what, std::string_view word, const std::vector<std::string>& words) {
  const std::string alias = faultfs_word(word);
  const std::string close = !alias.empty() ? alias : nearest_of(word, words);
  if (!close.empty()) return fmt::format("unknown {} '{}'; did you mean '{}'?", what, word, close);
  std::string nearest = words.front();
  for (const std::string& w : words) {
    if (edit_distance(word, w) < edit_distance(word, nearest)) nearest = w;
  }
  return fmt::format("unknown {} '{}' (the nearest is '{}'; one of {})", what, word, nearest, fmt::join(words, ", "));
}

std::vector<std::string_view> split(std::string_view text, char by) {
  std::vector<std::string_view> parts;
  while (true) {
    const std::size_t at = text.find(by);
    parts.push_back(text.substr(0, at));
    if (at == std::string_view::npos) return parts;
    text.remove_prefix(at + 1);
  }
}

// A duration with a unit ("0" alone allowed); nullopt otherwise.
std::optional<std::chrono::nanoseconds> duration_of(std::string_view text) {
  if (text == "0") return std::chrono::nanoseconds(0);
  if (parse_double(text)) return std::nullopt;  // a bare number: which unit?
  return parse_duration(text, std::chrono::nanoseconds(1));
}

bool parse_op(std::string_view word, FaultRule& rule, std::string& error) {
  static const std::vector<std::string> kOps = {"read", "write", "flush", "any"};
  for (std::size_t i = 0; i < kOps.size(); ++i) {
    if (kOps[i] == word) {
      rule.op = static_cast<FaultOp>(i);
      return true;
    }
  }
  error = word.empty() ? fmt::format("no operation; {}", kRuleShape) : unknown_word("operation", word, kOps);
  return false;
}

bool parse_action(std::string_view part, FaultRule& rule, std::string& error) {
  static const std::vector<std::string> kActions = {"eio", "enospc", "stall", "lie"};
  const std::size_t eq = part.find('=');
  const std::string_view word = part.substr(0, eq);
  const bool has_value = eq != std::string_view::npos;
  if (word == "eio" || word == "enospc" || word == "lie") {
    if (has_value) {
      error = fmt::format("{} takes no value", word);
      return false;
    }
    rule.action = word == "eio" ? FaultAction::kEio : word == "enospc" ? FaultAction::kEnospc : FaultAction::kLie;
    if (rule.action == FaultAction::kLie && rule.op != FaultOp::kWrite) {
      error = "lie applies to writes only: write:lie (acknowledged, not stored)";
      return false;
    }
    return true;
  }
  if (word == "stall") {
    const auto d = has_value ? duration_of(part.substr(eq + 1)) : std::nullopt;
    if (!d || d->count() <= 0) {
      error = "stall needs a positive duration with a unit: stall=200ms";
      return false;
    }
    rule.action = FaultAction::kStall;
    rule.stall = *d;
    return true;
  }
  error = word.empty() ? fmt::format("no action; {}", kRuleShape) : unknown_word("action", word, kActions);
  return false;
}

bool parse_trigger(std::string_view part, FaultRule& rule, std::vector<std::string>& seen, std::string& error) {
  static const std::vector<std::string> kTriggers = {"at", "after", "after_time", "count"};
  const std::size_t eq = part.find('=');
  const std::string word(part.substr(0, eq));
  const std::string_view value = eq == std::string_view::npos ? std::string_view() : part.substr(eq + 1);
  if (std::find(kTriggers.begin(), kTriggers.end(), word) == kTriggers.end()) {
    error = word.empty() ? fmt::format("an empty trigger; {}", kRuleShape) : unknown_word("trigger", word, kTriggers);
    return false;
  }
  if (std::find(seen.begin(), seen.end(), word) != seen.end()) {
    error = fmt::format("{} given twice in one rule", word);
    return false;
  }
  seen.push_back(word);
  if (eq == std::string_view::npos || value.empty()) {
    error = fmt::format("{} needs a value: {}=", word, word) + (word == "at"           ? "1m"
                                                                : word == "after_time" ? "10s"
                                                                : word == "after"      ? "100"
                                                                                       : "1");
    return false;
  }
  if (word == "at") {
    rule.at = parse_size(value);
    if (!rule.at) error = fmt::format("at={}: not an offset; sizes look like 4k, 1m, 2g", value);
    return rule.at.has_value();
  }
  if (word == "after_time") {
    const auto d = duration_of(value);
    if (!d) error = fmt::format("after_time={}: not a duration; write e.g. 500ms, 10s", value);
    if (d) rule.after_time = *d;
    return d.has_value();
  }
  const auto n = parse_unsigned(value);
  if (!n) {
    error = fmt::format("{}={}: not an integer", word, value);
    return false;
  }
  if (word == "after") {
    rule.after = *n;
    return true;
  }
  if (*n == 0) {
    error = "count=0 never fires; count is at least 1 (leave it out for no limit)";
    return false;
  }
  rule.count = *n;
  return true;
}

}  // namespace

std::optional<FaultRule> parse_fault_rule(std::string_view text, std::string& error) {
  FaultRule rule;
  rule.text = std::string(text);
  const std::vector<std::string_view> parts = split(text, ':');
  if (!parse_op(parts[0], rule, error)) return std::nullopt;
  if (parts.size() < 2) {
    error = fmt::format("no action after '{}'; {}", parts[0], kRuleShape);
    return std::nullopt;
  }
  if (!parse_action(parts[1], rule, error)) return std::nullopt;
  std::vector<std::string> seen;
  for (std::size_t i = 2; i < parts.size(); ++i) {
    if (!parse_trigger(parts[i], rule, seen, error)) return std::nullopt;
  }
  if (rule.at && rule.op == FaultOp::kFlush) {
    error = "at= never matches a flush (a flush has no byte range)";
    return std::nullopt;
  }
  return rule;
}

const char* fault_op_name(FaultOp op) noexcept {
  switch (op) {
    case FaultOp::kRead:
      return "read";
    case FaultOp::kWrite:
      return "write";
    case FaultOp::kFlush:
      return "flush";
    case FaultOp::kAny:
      return "any";
  }
  return "?";
}

const char* fault_action_name(FaultAction action) noexcept {
  switch (action) {
    case FaultAction::kNone:
      return "none";
    case FaultAction::kEio:
      return "eio";
    case FaultAction::kEnospc:
      return "enospc";
    case FaultAction::kStall:
      return "stall";
    case FaultAction::kLie:
      return "lie";
  }
  return "?";
}

int FaultDecision::error() const noexcept {
  return action == FaultAction::kEio ? EIO : action == FaultAction::kEnospc ? ENOSPC : 0;
}

FaultInjector::FaultInjector(std::vector<FaultRule> rules)
    : rules_(std::move(rules)), counters_(std::make_unique<Counters[]>(rules_.size())) {}

FaultDecision FaultInjector::decide(FaultOp op, std::uint64_t offset, std::uint64_t bytes,
                                    std::chrono::nanoseconds since_start) {
  FaultDecision decision;
  for (std::size_t i = 0; i < rules_.size(); ++i) {
    const FaultRule& rule = rules_[i];
    if (rule.op != FaultOp::kAny && rule.op != op) continue;
    if (rule.action == FaultAction::kLie && op != FaultOp::kWrite) continue;
    Counters& c = counters_[i];
    const std::uint64_t seen = c.seen.fetch_add(1, std::memory_order_relaxed);
    if (decision) continue;  // decided by an earlier rule; this one only counts the request
    if (seen < rule.after || since_start < rule.after_time) continue;
    if (rule.at && (op == FaultOp::kFlush || *rule.at < offset || *rule.at - offset >= bytes)) continue;
    if (rule.count) {
      std::uint64_t fired = c.fired.load(std::memory_order_relaxed);
      do {
        if (fired >= *rule.count) break;
      } while (!c.fired.compare_exchange_weak(fired, fired + 1, std::memory_order_relaxed));
      if (fired >= *rule.count) continue;
    } else {
      c.fired.fetch_add(1, std::memory_order_relaxed);
    }
    decision.action = rule.action;
    decision.stall = rule.stall;
    decision.rule = static_cast<int>(i);
  }
  return decision;
}

std::vector<std::uint64_t> FaultInjector::fired() const {
  std::vector<std::uint64_t> out;
  for (std::size_t i = 0; i < rules_.size(); ++i) out.push_back(counters_[i].fired.load(std::memory_order_relaxed));
  return out;
}

}  // namespace sluice
