#pragma once
// Loopback ports for tests that start servers (fio's and sluice's client/server protocol): a port nobody
// listens on, and whether one accepts connections yet.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <string>

namespace sluice::testing {

// A TCP port on the IPv4 address `host` that nobody listens on right now (the kernel's choice for a bind to
// port 0; another process may take it before the caller does, which the callers' start checks catch).
inline std::uint16_t unused_port(const std::string& host) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  ::inet_pton(AF_INET, host.c_str(), &a.sin_addr);
  socklen_t len = sizeof a;
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(fd);
  return ntohs(a.sin_port);
}

// Whether a TCP connection to `host`:`port` (IPv4) is accepted now.
inline bool accepts_connections(const std::string& host, std::uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  ::inet_pton(AF_INET, host.c_str(), &a.sin_addr);
  a.sin_port = htons(port);
  const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  ::close(fd);
  return ok;
}

}  // namespace sluice::testing
