#pragma once
// Addresses in fio's forms: "host", "host,port", "ip:host", "ip4:host", "ip6:host" (each with an optional
// ",port"), ":port", and "sock:PATH" (a Unix socket); the port defaults to 8765. Listening and connecting.
#include <sys/socket.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "fionet/wire.h"

namespace sluice::fionet {

struct Endpoint {
  enum class Kind { kIpv4, kIpv6, kUnix };
  Kind kind = Kind::kIpv4;
  std::string host;  // as given (a name, an address, or the socket's path); "127.0.0.1" when none was given
  std::uint16_t port = 0;
  sockaddr_storage address{};
  socklen_t address_length = 0;
};

// Parses one address; a server given no host (`--server`, `--server=,8766`, `--server=:8766`) gets the
// loopback address, never the wildcard (sluice's choice; fio listens on every interface). Names are resolved
// (the first address of the family). Throws UserError naming the text on a bad port or an unknown host.
Endpoint parse_endpoint(std::string_view text);

// "127.0.0.1,8765", "ip6:::1,8765", "sock:/run/x": fio's own spelling of the endpoint.
std::string describe(const Endpoint& endpoint);

// A listening socket bound to the endpoint (SO_REUSEADDR; a stale Unix socket file is replaced).
// Throws UserError with the reason (address in use, permission).
int listen_on(const Endpoint& endpoint);

// A connected socket, or -1 with `why` set (refused, unreachable, no answer within `timeout`).
int connect_to(const Endpoint& endpoint, std::chrono::milliseconds timeout, std::string& why);

}  // namespace sluice::fionet
