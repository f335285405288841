#pragma once
// The pure parts of an SMTP client: reply lines, the server argument, address pools, message sizes and the
// message text. No sockets here (smtp_connection.h), so tests check them without a server.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/rng.h"

namespace sluice {

// One line of a reply: "250-PIPELINING" (more follows) or "250 OK" (last). code is 0 for a line that is
// not a reply line (garbage).
struct ReplyLine {
  int code = 0;
  bool last = false;
};
ReplyLine parse_reply_line(std::string_view line);

// "HOST:PORT" or "[IPv6]:PORT". Throws UserError naming --server.
void parse_server(const std::string& text, std::string& host, std::uint16_t& port);

// "S" (every message body S bytes) or "MIN-MAX" (uniform), sizes as job/units.h reads them ("10k").
// Throws UserError naming --size.
void parse_size_range(const std::string& text, std::uint64_t& min, std::uint64_t& max);

// The addresses of a file, one a line (blank lines and # comments skipped). Throws UserError naming
// `option` when the file cannot be read or holds no address.
std::vector<std::string> read_address_file(const std::string& path, const std::string& option);
// `count` generated addresses: "user<i>@<domain>".
std::vector<std::string> generated_addresses(std::uint64_t count, const std::string& prefix, const std::string& domain);

// A body of at least `bytes` bytes made of 76-letter lines ending in CRLF: no line starts with '.', so it
// needs no dot-stuffing. Messages take prefixes of it (message_text).
std::string make_body_pool(std::uint64_t bytes, std::uint64_t seed);

// The DATA payload: headers and the first `body_bytes` of the pool (rounded up to end with CRLF), without
// the terminating ".\r\n".
std::string message_text(const std::string& from, const std::vector<std::string>& to, std::uint64_t id,
                         const std::string& body_pool, std::uint64_t body_bytes);

}  // namespace sluice
