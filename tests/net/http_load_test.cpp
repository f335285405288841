// run_http_load against tiny in-test servers on 127.0.0.1: complete responses, a server closing
// mid-response, garbage, a refused port, a server that never answers; each ends, counted by kind.
#include "net/http_load.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <string>
#include <system_error>
#include <thread>

#include "common/error.h"
#include "support/nginx_server.h"

namespace sluice {
namespace {

using namespace std::chrono_literals;

// Accepts connections on 127.0.0.1 (a thread each) and answers each request (read until "\r\n\r\n") with `reply`;
// closes the connection after the reply when `close_after` is set. Serves until destroyed.
class CannedServer {
 public:
  CannedServer(std::string reply, bool close_after, bool silent = false)
      : reply_(std::move(reply)), close_after_(close_after), silent_(silent) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    // An unchecked failed bind() would let listen() bind an ephemeral port on every interface, not 127.0.0.1.
    if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(fd_, 64) != 0 ||
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
      const int error = errno;
      if (fd_ >= 0) ::close(fd_);
      throw std::system_error(error, std::generic_category(), "CannedServer: cannot listen on 127.0.0.1");
    }
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] { serve(); });
  }
  ~CannedServer() {
    stop_ = true;
    ::shutdown(fd_, SHUT_RDWR);
    ::close(fd_);
    thread_.join();
    for (std::thread& t : handlers_) t.join();
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/x"; }

 private:
  void serve() {
    while (!stop_) {
      const int c = ::accept(fd_, nullptr, nullptr);
      if (c < 0) return;
      handlers_.emplace_back([this, c] { handle(c); });
    }
  }

  // One connection, on its own thread, until the client closes, the reply closes it, or the server stops.
  void handle(int c) {
    {
      timeval tv{0, 50000};
      ::setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
      std::string in;
      char buf[4096];
      while (!stop_) {
        const ssize_t n = ::recv(c, buf, sizeof buf, 0);
        if (n <= 0) {
          if (n < 0 && errno == EAGAIN) continue;  // idle: look at stop_ again
          break;
        }
        in.append(buf, static_cast<std::size_t>(n));
        std::size_t end;
        bool replied = false;
        while ((end = in.find("\r\n\r\n")) != std::string::npos && !silent_) {
          in.erase(0, end + 4);
          ::send(c, reply_.data(), reply_.size(), MSG_NOSIGNAL);
          replied = true;
          if (close_after_) break;
        }
        if (close_after_ && replied) break;
      }
      ::close(c);
    }
  }

  std::string reply_;
  bool close_after_;
  bool silent_;
  int fd_ = -1;
  std::uint16_t port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  std::vector<std::thread> handlers_;  // touched by the accept thread only, joined after it
};

HttpLoadOptions options_for(const std::string& url, std::uint64_t fetches) {
  HttpLoadOptions o;
  o.urls = {parse_http_url(url, "--url")};
  o.fetches = fetches;
  o.parallel = 2;
  o.connect_timeout = 2s;
  o.read_timeout = 300ms;
  return o;
}

TEST(HttpLoad, CountsCompleteResponsesOnKeepAliveConnections) {
  CannedServer server("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", false);
  const HttpLoadResult r = run_http_load(options_for(server.url(), 50));
  EXPECT_EQ(r.responses, 50u);
  EXPECT_EQ(r.error_total(), 0u);
  EXPECT_EQ(r.body_bytes, 250u);
  EXPECT_EQ(r.status_codes.at(200), 50u);
  EXPECT_EQ(r.connections, 2u);  // keep-alive: one connection per parallel slot
  EXPECT_EQ(r.latency_ns.total(), 50u);
  EXPECT_EQ(r.connect_ns.total(), 2u);
}

TEST(HttpLoad, ChunkedResponsesAndConnectionCloseReconnect) {
  CannedServer server(
      "HTTP/1.1 201 Created\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n", true);
  const HttpLoadResult r = run_http_load(options_for(server.url(), 20));
  EXPECT_EQ(r.responses, 20u);
  EXPECT_EQ(r.error_total(), 0u) << (r.first_errors.empty() ? "" : r.first_errors[0]);
  EXPECT_EQ(r.body_bytes, 60u);
  EXPECT_EQ(r.connections, 20u);
}

TEST(HttpLoad, ServerClosingMidResponseIsClosedEarly) {
  CannedServer server("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly a part", true);
  const HttpLoadResult r = run_http_load(options_for(server.url(), 10));
  EXPECT_EQ(r.responses, 0u);
  EXPECT_EQ(r.errors[static_cast<int>(HttpErrorKind::kClosedEarly)], 10u);
  ASSERT_FALSE(r.first_errors.empty());
  EXPECT_NE(r.first_errors[0].find("mid-body"), std::string::npos) << r.first_errors[0];
  EXPECT_LE(r.first_errors.size(), HttpLoadResult::kKeptErrors);
}

TEST(HttpLoad, GarbageIsABadResponse) {
  CannedServer server("SSH-2.0-OpenSSH_9.2\r\n", true);
  const HttpLoadResult r = run_http_load(options_for(server.url(), 6));
  EXPECT_EQ(r.errors[static_cast<int>(HttpErrorKind::kBadResponse)], 6u);
  EXPECT_EQ(r.responses, 0u);
}

TEST(HttpLoad, RefusedPortIsCountedNotThrown) {
  const std::uint16_t port = testing::free_loopback_port();
  const HttpLoadResult r = run_http_load(options_for("http://127.0.0.1:" + std::to_string(port) + "/", 8));
  EXPECT_EQ(r.errors[static_cast<int>(HttpErrorKind::kConnectRefused)], 8u);
  EXPECT_EQ(r.requests, 8u);
}

TEST(HttpLoad, SilentServerTimesOut) {
  CannedServer server("", false, true);
  HttpLoadOptions o = options_for(server.url(), 2);
  o.read_timeout = 50ms;  // the server never answers: any timeout tests the same, a short one costs less
  const auto start = std::chrono::steady_clock::now();
  const HttpLoadResult r = run_http_load(o);
  EXPECT_EQ(r.errors[static_cast<int>(HttpErrorKind::kReadTimeout)], 2u);
  // 50 ms on an idle machine; without the read timeout it would never end. Room for a busy machine.
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
}

TEST(HttpLoad, OpenLoopHoldsTheRateAndMeasuresFromTheSchedule) {
  CannedServer server("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", false);
  HttpLoadOptions o = options_for(server.url(), 0);
  o.rate = 200;
  o.duration = 250ms;  // 50 requests: a closed loop would send thousands, a rate off by 5% misses by 2.5
  o.parallel = 4;
  const HttpLoadResult r = run_http_load(o);
  EXPECT_EQ(r.error_total(), 0u) << (r.first_errors.empty() ? "" : r.first_errors.front());
  EXPECT_NEAR(static_cast<double>(r.responses), 50.0, 2.0);  // 200/s for 0.25 s, the first at t = 0
  EXPECT_GE(r.elapsed_s, 0.245);
}

TEST(HttpLoad, NeedsAnEnd) {
  CannedServer server("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", false);
  EXPECT_THROW(run_http_load(options_for(server.url(), 0)), UserError);
}

}  // namespace
}  // namespace sluice
