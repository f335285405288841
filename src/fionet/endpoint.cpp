// fio's address forms, resolved; listening and bounded connecting.
#include "fionet/endpoint.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>

#include "common/error.h"

namespace sluice::fionet {
namespace {

std::uint16_t parse_port(std::string_view whole, std::string_view text) {
  unsigned value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value == 0 || value > 65535) {
    throw UserError(fmt::format("{}: bad port '{}'; ports are 1 to 65535 (e.g. 127.0.0.1,8766)", whole, text));
  }
  return static_cast<std::uint16_t>(value);
}

void resolve(std::string_view whole, Endpoint& e) {
  addrinfo hints{};
  hints.ai_family = e.kind == Endpoint::Kind::kIpv6 ? AF_INET6 : AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const int rc = ::getaddrinfo(e.host.c_str(), nullptr, &hints, &found);
  if (rc != 0 || found == nullptr) {
    throw UserError(fmt::format("{}: cannot resolve host '{}' ({})", whole, e.host, ::gai_strerror(rc)));
  }
  std::memcpy(&e.address, found->ai_addr, found->ai_addrlen);
  e.address_length = found->ai_addrlen;
  ::freeaddrinfo(found);
  if (e.kind == Endpoint::Kind::kIpv6) {
    reinterpret_cast<sockaddr_in6*>(&e.address)->sin6_port = htons(e.port);
  } else {
    reinterpret_cast<sockaddr_in*>(&e.address)->sin_port = htons(e.port);
  }
}

}  // namespace

Endpoint parse_endpoint(std::string_view text) {
  Endpoint e;
  if (text.starts_with("sock:")) {
    e.kind = Endpoint::Kind::kUnix;
    e.host = std::string(text.substr(5));
    sockaddr_un un{};
    if (e.host.empty() || e.host.size() >= sizeof(un.sun_path)) {
      throw UserError(
          fmt::format("{}: a Unix socket path of 1 to {} characters is needed", text, sizeof(un.sun_path) - 1));
    }
    un.sun_family = AF_UNIX;
    std::memcpy(un.sun_path, e.host.data(), e.host.size());
    std::memcpy(&e.address, &un, sizeof(un));
    e.address_length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + e.host.size() + 1);
    return e;
  }
  std::string_view host = text;
  if (host.starts_with("ip6:")) {
    e.kind = Endpoint::Kind::kIpv6;
    host.remove_prefix(4);
  } else if (host.starts_with("ip4:")) {
    host.remove_prefix(4);
  } else if (host.starts_with("ip:")) {
    host.remove_prefix(3);
  }
  e.port = kDefaultPort;
  if (host.starts_with(':') && e.kind != Endpoint::Kind::kIpv6) {
    e.port = parse_port(text, host.substr(1));
    host = {};
  } else if (const std::size_t comma = host.rfind(','); comma != std::string_view::npos) {
    e.port = parse_port(text, host.substr(comma + 1));
    host = host.substr(0, comma);
  }
  e.host = host.empty() ? (e.kind == Endpoint::Kind::kIpv6 ? "::1" : "127.0.0.1") : std::string(host);
  resolve(text, e);
  return e;
}

std::string describe(const Endpoint& e) {
  switch (e.kind) {
    case Endpoint::Kind::kUnix:
      return "sock:" + e.host;
    case Endpoint::Kind::kIpv6:
      return fmt::format("ip6:{},{}", e.host, e.port);
    case Endpoint::Kind::kIpv4:
      break;
  }
  return fmt::format("{},{}", e.host, e.port);
}

int listen_on(const Endpoint& e) {
  const int family = e.kind == Endpoint::Kind::kUnix ? AF_UNIX : e.kind == Endpoint::Kind::kIpv6 ? AF_INET6 : AF_INET;
  const int fd = ::socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw UserError(fmt::format("{}: socket: {}", describe(e), std::strerror(errno)));
  if (e.kind == Endpoint::Kind::kUnix) {
    struct stat st {};
    if (::lstat(e.host.c_str(), &st) == 0 && S_ISSOCK(st.st_mode)) ::unlink(e.host.c_str());  // a stale socket
  } else {
    const int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  }
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&e.address), e.address_length) != 0 || ::listen(fd, 16) != 0) {
    const int err = errno;
    ::close(fd);
    throw UserError(fmt::format("cannot listen on {}: {}", describe(e), std::strerror(err)));
  }
  return fd;
}

int connect_to(const Endpoint& e, std::chrono::milliseconds timeout, std::string& why) {
  const int family = e.kind == Endpoint::Kind::kUnix ? AF_UNIX : e.kind == Endpoint::Kind::kIpv6 ? AF_INET6 : AF_INET;
  const int fd = ::socket(family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) {
    why = std::strerror(errno);
    return -1;
  }
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&e.address), e.address_length) != 0) {
    if (errno != EINPROGRESS) {
      why = std::strerror(errno);
      ::close(fd);
      return -1;
    }
    pollfd pfd{fd, POLLOUT, 0};
    const int n = ::poll(&pfd, 1, static_cast<int>(timeout.count()));
    int err = 0;
    socklen_t len = sizeof(err);
    if (n <= 0) {
      why = fmt::format("no answer within {} ms", timeout.count());
      ::close(fd);
      return -1;
    }
    ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
    if (err != 0) {
      why = std::strerror(err);
      ::close(fd);
      return -1;
    }
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

}  // namespace sluice::fionet
