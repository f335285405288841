#pragma once
// The SMTP load: `parallel` threads, each one connection at a time, sending messages Postal's way (a random
// number of messages per connection, random sizes, random senders and recipients from the pools), in a
// closed loop (each thread sends its next message when the last is done) or an open loop (messages are due
// on a shared schedule at --rate; latency counts from the due time, so a slow server shows as latency, not
// as fewer samples).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "smtp/smtp_options.h"
#include "stats/latency_stat.h"

namespace sluice {

// The latency kinds of one message.
enum class SmtpPhase { kConnect, kMail, kRcpt, kData, kTotal };
inline constexpr std::size_t kSmtpPhaseCount = 5;
const char* smtp_phase_name(SmtpPhase phase);

struct SmtpCounters {
  std::uint64_t delivered = 0;  // messages the server accepted (2xx after the final dot)
  std::uint64_t attempted = 0;
  std::uint64_t bytes = 0;                      // DATA payload bytes of the delivered messages
  std::uint64_t connections = 0;                // connections opened (greeting received)
  std::map<std::string, std::uint64_t> errors;  // by reply code ("451") or network kind ("refused")
  std::vector<std::string> first_errors;        // the first few, with the command and the server's words
  LatencyStat latency[kSmtpPhaseCount];         // nanoseconds

  void merge(const SmtpCounters& other);
  std::uint64_t error_count() const;
};

struct SmtpResult {
  SmtpOptions options;
  std::uint64_t timestamp_ms = 0;  // wall clock at the start
  SmtpCounters counters;
  double elapsed_s = 0;
  bool interrupted = false;
};

// Runs the load. Throws UserError when the server name does not resolve.
SmtpResult run_smtp_load(const SmtpOptions& options);

}  // namespace sluice
