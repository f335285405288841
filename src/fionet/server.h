#pragma once
// sluice's fio-protocol server (`sluice --server`, `fio --server` through the fio link): listens on one address,
// and for each client connection forks a process that serves it (server_session.h), as fio's server does.
// A server runs whatever job a client sends it, with the server's user's rights: it can read and write every
// file and device that user can. Hence: bound to the address given (loopback when none), and --server-allow.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fionet/endpoint.h"

namespace sluice::fionet {

// An IPv4 or IPv6 network, "10.0.0.0/8", "192.168.1.7" (a /32), "fd00::/8".
struct Cidr {
  int family = 0;  // AF_INET or AF_INET6
  std::uint8_t bytes[16] = {};
  int prefix = 0;
};
// Throws UserError naming the text when it is no network.
Cidr parse_cidr(std::string_view text);
// True when the address (AF_INET, AF_INET6; an IPv4-mapped IPv6 address counts as IPv4) is in the network.
bool cidr_contains(const Cidr& network, const sockaddr_storage& address);

struct ServerOptions {
  Endpoint endpoint;
  std::string pid_file;     // --daemonize=PIDFILE: detach, write the pid there (removed at exit)
  std::vector<Cidr> allow;  // empty: every client that reaches the address; else only these networks
  std::string secret;       // --server-secret's content: only clients that prove it run jobs (sluice's)
};

// Serves until SIGINT/SIGTERM. Throws UserError when the address cannot be listened on (before detaching).
int run_server(const ServerOptions& options);

}  // namespace sluice::fionet
