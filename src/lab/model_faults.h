#pragma once
// A model's fault rules (the `fault` key, docs/lab.md "Faults"): errors, stalls and lies at chosen offsets or
// times, at the block level. A rule is OP:ACTION[:TRIGGER]...
//   OP      read | write | flush | any
//   ACTION  eio | enospc        the request fails with that errno, replied at the model's due time
//           stall=DURATION      the reply leaves that much later than the model says
//           lie                 writes only: acknowledged at the model's time, the data not stored
//   TRIGGER at=OFFSET           the request's byte range holds OFFSET (a size: 1m); never a flush
//           after=N             only after N requests of OP (the rule counts them all, whoever decides)
//           after_time=DURATION only that long after the daemon started
//           count=K             at most K times
// Several rules: the first that matches decides. The rules are plain data (part of ModelSpec); FaultInjector
// holds their counters and decides, from any thread.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sluice {

enum class FaultOp { kRead, kWrite, kFlush, kAny };  // kAny: in rules only; a request is one of the others
enum class FaultAction { kNone, kEio, kEnospc, kStall, kLie };

struct FaultRule {
  std::string text;  // the rule as written, for messages and the daemon's record
  FaultOp op = FaultOp::kAny;
  FaultAction action = FaultAction::kEio;
  std::chrono::nanoseconds stall{0};       // kStall
  std::optional<std::uint64_t> at;         // a byte the request's range must hold
  std::uint64_t after = 0;                 // requests of `op` let through first
  std::chrono::nanoseconds after_time{0};  // since the daemon started
  std::optional<std::uint64_t> count;      // at most this many faults; none = no limit
};

// Parses one rule; nullopt with `error` set ("unknown action 'eoi'; did you mean 'eio'?") when it is wrong.
std::optional<FaultRule> parse_fault_rule(std::string_view text, std::string& error);

// "read", "write", "flush", "any"; "eio", "enospc", "stall", "lie" ("none" for kNone).
const char* fault_op_name(FaultOp op) noexcept;
const char* fault_action_name(FaultAction action) noexcept;

// What to do with one request.
struct FaultDecision {
  FaultAction action = FaultAction::kNone;
  std::chrono::nanoseconds stall{0};  // kStall: added to the model's time
  int rule = -1;                      // the index of the rule that decided; -1 = none

  explicit operator bool() const noexcept { return action != FaultAction::kNone; }
  // EIO or ENOSPC for an error, 0 otherwise.
  int error() const noexcept;
};

class FaultInjector {
 public:
  explicit FaultInjector(std::vector<FaultRule> rules);
  FaultInjector(const FaultInjector&) = delete;
  FaultInjector& operator=(const FaultInjector&) = delete;

  // The request `op` (not kAny) over [offset, offset + bytes), arriving `since_start` after the daemon
  // started: the first rule that matches decides. Counts the request for every rule of its op. Thread-safe.
  FaultDecision decide(FaultOp op, std::uint64_t offset, std::uint64_t bytes, std::chrono::nanoseconds since_start);

  bool empty() const noexcept { return rules_.empty(); }
  const std::vector<FaultRule>& rules() const noexcept { return rules_; }
  // How many times each rule fired, in the rules' order.
  std::vector<std::uint64_t> fired() const;

 private:
  struct Counters {
    std::atomic<std::uint64_t> seen{0};   // requests of the rule's op
    std::atomic<std::uint64_t> fired{0};  // faults injected
  };
  std::vector<FaultRule> rules_;
  std::unique_ptr<Counters[]> counters_;
};

}  // namespace sluice
