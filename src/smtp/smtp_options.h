#pragma once
// What `sluice smtp` was asked for.
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace sluice {

struct SmtpOptions {
  std::string host;  // from --server=HOST:PORT
  std::uint16_t port = 25;
  std::uint32_t parallel = 1;  // connections (one thread each)
  std::uint64_t messages = 0;  // --messages; 0 = run for `duration`
  std::chrono::nanoseconds duration{std::chrono::seconds(10)};
  std::uint64_t rate = 0;                            // messages per second, open loop; 0 = closed loop
  bool poisson = false;                              // open loop: Poisson arrivals instead of constant spacing
  std::uint64_t size_min = 0, size_max = 10 * 1024;  // message body bytes, uniform in [min, max]
  std::uint32_t per_connection = 1;                  // postal's -c: 1, or a random count 1..K per connection
  std::uint32_t recipients = 1;                      // RCPT TO per message
  std::vector<std::string> senders;                  // the address pools (files or generated)
  std::vector<std::string> recipients_pool;
  std::chrono::nanoseconds timeout{std::chrono::seconds(10)};  // connect and every reply
  std::uint64_t seed = 24301;
};

}  // namespace sluice
