// The accept loop of sluice's fio-protocol server: a forked process per client, allow-list, daemon mode.
#include "fionet/server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <vector>

#include "common/created_files.h"
#include "common/error.h"
#include "common/stop_signal.h"
#include "fionet/pdu.h"
#include "fionet/server_session.h"
#include "fionet/wire.h"

namespace sluice::fionet {
namespace {

void log_line(const std::string& line) {
  char when[32] = {};
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  ::localtime_r(&now, &tm);
  std::strftime(when, sizeof(when), "%H:%M:%S", &tm);
  std::fprintf(stderr, "sluice server %s: %s\n", when, line.c_str());
  std::fflush(stderr);
}

std::string peer_name(const sockaddr_storage& a) {
  char text[INET6_ADDRSTRLEN] = {};
  if (a.ss_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(&a);
    ::inet_ntop(AF_INET, &in->sin_addr, text, sizeof(text));
    return fmt::format("{},{}", text, ntohs(in->sin_port));
  }
  if (a.ss_family == AF_INET6) {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(&a);
    ::inet_ntop(AF_INET6, &in6->sin6_addr, text, sizeof(text));
    return fmt::format("ip6:{},{}", text, ntohs(in6->sin6_port));
  }
  return "a local socket";
}

bool allowed(const ServerOptions& options, const sockaddr_storage& peer) {
  if (options.allow.empty() || peer.ss_family == AF_UNIX) return true;
  for (const Cidr& network : options.allow) {
    if (cidr_contains(network, peer)) return true;
  }
  return false;
}

// Ends the connection once everything sent is read: stops writing, then reads and drops what the client still
// sends until it hangs up, for at most 2 s. Closing with its messages unread would reset the connection, and a
// reset discards what the client had not read yet (fio's client asks for the ETA every second, more often when
// it shows the ETA line: a report followed by a reset printed "client: host=... disconnected" instead), or
// kills it with SIGPIPE on its next write.
void hang_up_gracefully(int fd) {
  ::shutdown(fd, SHUT_WR);
  char sink[4096];
  for (int i = 0; i < 20; ++i) {
    pollfd pfd{fd, POLLIN, 0};
    if (::poll(&pfd, 1, 100) > 0 && ::recv(fd, sink, sizeof(sink), 0) <= 0) break;
  }
}

// Tells a client it is not allowed (TEXT, STOP with EACCES, QUIT, as a failed fio server ends) and waits a
// little for it to hang up, so that fio's client reads the reason instead of dying of SIGPIPE on its next write.
void refuse_client(int fd, const std::string& name) {
  using namespace std::chrono_literals;
  const std::string line = "sluice server: " + name + " is not in the server's --server-allow networks; refused\n";
  send_message(fd, Op::kText, 0, encode_text(line), 2s);
  send_message(fd, Op::kStop, 0, encode_stop(EACCES, 0), 2s);
  send_message(fd, Op::kQuit, 0, {}, 2s);
  hang_up_gracefully(fd);
}

void reap_children(std::vector<pid_t>& children) {
  for (auto it = children.begin(); it != children.end();) {
    int status = 0;
    if (::waitpid(*it, &status, WNOHANG) == *it) {
      it = children.erase(it);
    } else {
      ++it;
    }
  }
}

// Detaches (fork, setsid, stdio to /dev/null) and writes the pid file. Returns in the daemon only.
void daemonize(const std::string& pid_file) {
  const pid_t pid = ::fork();
  if (pid < 0) throw UserError(fmt::format("--daemonize: fork: {}", std::strerror(errno)));
  if (pid > 0) {
    std::ofstream out(pid_file, std::ios::trunc);
    out << pid << "\n";
    out.close();
    if (!out) {
      ::kill(pid, SIGTERM);
      throw UserError(fmt::format("--daemonize={}: cannot write the pid file", pid_file));
    }
    ::_exit(0);  // the daemon owns everything from here (no exit handlers of the parent run)
  }
  ::setsid();
  const int null = ::open("/dev/null", O_RDWR);
  if (null >= 0) {
    ::dup2(null, 0);
    ::dup2(null, 1);
    ::dup2(null, 2);
    if (null > 2) ::close(null);
  }
}

}  // namespace

Cidr parse_cidr(std::string_view text) {
  Cidr c;
  std::string_view address = text;
  int max_prefix = 32;
  const std::size_t slash = text.find('/');
  if (slash != std::string_view::npos) address = text.substr(0, slash);
  const std::string host(address);
  if (::inet_pton(AF_INET, host.c_str(), c.bytes) == 1) {
    c.family = AF_INET;
  } else if (::inet_pton(AF_INET6, host.c_str(), c.bytes) == 1) {
    c.family = AF_INET6;
    max_prefix = 128;
  } else {
    throw UserError(
        fmt::format("--server-allow={}: not a network; write an address or ADDRESS/PREFIX, e.g. "
                    "10.0.0.0/8, 192.168.1.7, fd00::/8",
                    text));
  }
  c.prefix = max_prefix;
  if (slash != std::string_view::npos) {
    const std::string_view bits = text.substr(slash + 1);
    int prefix = -1;
    const auto [end, ec] = std::from_chars(bits.data(), bits.data() + bits.size(), prefix);
    if (ec != std::errc() || end != bits.data() + bits.size() || prefix < 0 || prefix > max_prefix) {
      throw UserError(fmt::format("--server-allow={}: the prefix must be 0 to {}", text, max_prefix));
    }
    c.prefix = prefix;
  }
  return c;
}

bool cidr_contains(const Cidr& network, const sockaddr_storage& address) {
  std::uint8_t bytes[16] = {};
  int family = address.ss_family;
  if (family == AF_INET) {
    std::memcpy(bytes, &reinterpret_cast<const sockaddr_in*>(&address)->sin_addr, 4);
  } else if (family == AF_INET6) {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(&address);
    if (IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr)) {
      family = AF_INET;
      std::memcpy(bytes, in6->sin6_addr.s6_addr + 12, 4);
    } else {
      std::memcpy(bytes, in6->sin6_addr.s6_addr, 16);
    }
  }
  if (family != network.family) return false;
  const int full = network.prefix / 8;
  if (std::memcmp(bytes, network.bytes, static_cast<std::size_t>(full)) != 0) return false;
  const int rest = network.prefix % 8;
  if (rest == 0) return true;
  const std::uint8_t mask = static_cast<std::uint8_t>(0xff << (8 - rest));
  return (bytes[full] & mask) == (network.bytes[full] & mask);
}

int run_server(const ServerOptions& options) {
  const int listener = listen_on(options.endpoint);
  const std::string where = describe(options.endpoint);
  log_line(fmt::format(
      "listening on {} (fio's client/server protocol version {}, as fio 3.33); it runs any job a "
      "client sends, as this user{}{}",
      where, kProtocolVersion, options.allow.empty() ? "" : "; clients only from the --server-allow networks",
      options.secret.empty() ? "" : "; only sluice clients that prove the --server-secret"));
  if (!options.pid_file.empty()) daemonize(options.pid_file);
  install_stop_signal_handlers();
  ::signal(SIGPIPE, SIG_IGN);
  std::vector<pid_t> children;
  while (!stop_requested()) {
    reap_children(children);
    pollfd pfd{listener, POLLIN, 0};
    if (::poll(&pfd, 1, 200) <= 0) continue;
    sockaddr_storage peer{};
    socklen_t length = sizeof(peer);
    const int fd = ::accept4(listener, reinterpret_cast<sockaddr*>(&peer), &length, SOCK_CLOEXEC);
    if (fd < 0) continue;
    const std::string name = peer_name(peer);
    const bool refused = !allowed(options, peer);
    log_line(name + (refused ? ": refused (not in --server-allow)" : ": connected"));
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::close(listener);
      SessionLog log{log_line};
      if (refused) refuse_client(fd, name);
      const int code = refused ? 1 : serve_connection(fd, name, log, options.secret);
      // A session that ended normally keeps the files its jobs kept: its journal of created files goes, so the
      // next start does not take them for a killed run's leftovers.
      end_created_files_journal();
      std::fflush(nullptr);
      if (!refused) hang_up_gracefully(fd);  // after the journal: a client may look for it once it has its results
      ::close(fd);
      ::_exit(code);
    }
    ::close(fd);
    if (pid > 0) children.push_back(pid);
  }
  for (pid_t child : children) ::kill(child, SIGTERM);
  for (pid_t child : children) ::waitpid(child, nullptr, 0);
  ::close(listener);
  if (options.endpoint.kind == Endpoint::Kind::kUnix) ::unlink(options.endpoint.host.c_str());
  if (!options.pid_file.empty()) ::unlink(options.pid_file.c_str());
  log_line("stopped");
  return 0;
}

}  // namespace sluice::fionet
