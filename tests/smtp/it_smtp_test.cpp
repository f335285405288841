// End to end: build/sluice smtp against an aiosmtpd sink, a port nobody listens on, and a tiny in-test
// server that refuses recipients or answers garbage. Loopback only; every server stops on teardown.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <string>
#include <thread>

#include "support/it_test_util.h"
#include "support/machine_features.h"

namespace sluice::testing {
namespace {

constexpr const char* kPython = "/usr/bin/python3";  // Debian's, where python3-aiosmtpd is installed

// A listening socket on 127.0.0.1 at a free port.
int listen_loopback(std::uint16_t& port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(fd, 64) != 0) return ::close(fd), -1;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  port = ntohs(a.sin_port);
  return fd;
}

bool accepts(std::uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(port);
  const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  ::close(fd);
  return ok;
}

// python3 -m aiosmtpd with the discarding Sink handler, killed on destruction.
class AiosmtpdSink {
 public:
  AiosmtpdSink() {
    const int probe = listen_loopback(port_);
    ::close(probe);
    pid_ = ::fork();
    if (pid_ == 0) {
      const std::string listen = "127.0.0.1:" + std::to_string(port_);
      ::execl(kPython, kPython, "-m", "aiosmtpd", "-n", "-l", listen.c_str(), "-c", "aiosmtpd.handlers.Sink",
              static_cast<char*>(nullptr));
      ::_exit(127);
    }
    for (int i = 0; i < 100 && !accepts(port_); ++i) ::usleep(50'000);
  }
  ~AiosmtpdSink() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  bool ready() const { return pid_ > 0 && accepts(port_); }
  std::string server() const { return "--server=127.0.0.1:" + std::to_string(port_); }

 private:
  std::uint16_t port_ = 0;
  pid_t pid_ = -1;
};

// One connection at a time: greets (or sends garbage), answers EHLO/MAIL/RSET/QUIT with success and RCPT
// with `rcpt_reply`.
class TinyServer {
 public:
  TinyServer(std::string greeting, std::string rcpt_reply)
      : greeting_(std::move(greeting)), rcpt_(std::move(rcpt_reply)) {
    fd_ = listen_loopback(port_);
    thread_ = std::thread([this] { serve(); });
  }
  ~TinyServer() {
    stop_ = true;
    thread_.join();
    ::close(fd_);
  }
  std::string server() const { return "--server=127.0.0.1:" + std::to_string(port_); }

 private:
  void serve() {
    while (!stop_) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      const int c = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (c < 0) continue;
      talk(c);
      ::close(c);
    }
  }
  void say(int c, const std::string& s) { (void)!::send(c, s.data(), s.size(), MSG_NOSIGNAL); }
  void talk(int c) {
    say(c, greeting_);
    std::string buffer;
    char chunk[1024];
    while (!stop_) {
      pollfd p{c, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      const ssize_t n = ::recv(c, chunk, sizeof chunk, 0);
      if (n <= 0) return;
      buffer.append(chunk, static_cast<std::size_t>(n));
      for (std::size_t eol; (eol = buffer.find("\r\n")) != std::string::npos;) {
        const std::string line = buffer.substr(0, eol);
        buffer.erase(0, eol + 2);
        if (line.rfind("RCPT", 0) == 0) {
          say(c, rcpt_);
        } else if (line.rfind("QUIT", 0) == 0) {
          say(c, "221 bye\r\n");
          return;
        } else {
          say(c, "250 ok\r\n");
        }
      }
    }
  }

  std::string greeting_, rcpt_;
  std::uint16_t port_ = 0;
  int fd_ = -1;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

TEST(SmtpCli, DeliversToAnAiosmtpdSink) {
  SLUICE_REQUIRE(kAiosmtpd);
  AiosmtpdSink sink;
  if (!sink.ready()) GTEST_SKIP() << "aiosmtpd did not start (python3-aiosmtpd missing?)";
  const RunOutput r = run_binary({"smtp", sink.server(), "--parallel=2", "--messages=40", "--per-connection=5",
                                  "--size=1k-4k", "--recipients=2", "--output-format=json", "--timeout=5s"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  const nlohmann::json& s = (*doc)["sluice"]["smtp"];
  EXPECT_EQ(s["messages_delivered"], 40);
  EXPECT_EQ(s["errors"]["total"], 0) << s["errors"].dump();
  EXPECT_GT(s["messages_per_minute"].get<double>(), 0.0);
  EXPECT_GE(s["bytes_per_minute"].get<double>(), s["messages_per_minute"].get<double>() * 1024);
  EXPECT_EQ(s["latency_ns"]["total"]["count"], 40);
  EXPECT_GE(s["connections"].get<int>(), 8);  // at most 5 messages per connection
  EXPECT_GT(s["latency_ns"]["data"]["percentile"]["99.000000"].get<double>(), 0.0);
}

TEST(SmtpCli, OpenLoopAgainstTheSinkSendsAtTheRate) {
  SLUICE_REQUIRE(kAiosmtpd);
  AiosmtpdSink sink;
  if (!sink.ready()) GTEST_SKIP() << "aiosmtpd did not start";
  const RunOutput r =
      run_binary({"smtp", sink.server(), "--parallel=4", "--rate=50", "--duration=1s", "--output-format=json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  const nlohmann::json& s = (*doc)["sluice"]["smtp"];
  EXPECT_EQ(s["loop"], "open");
  EXPECT_NEAR(s["messages_attempted"].get<double>(), 50, 2);
  EXPECT_EQ(s["errors"]["total"], 0);
}

TEST(SmtpCli, RefusedConnectionsAreCountedNotFatal) {
  std::uint16_t port = 0;
  ::close(listen_loopback(port));  // a port nobody listens on now
  const RunOutput r = run_binary(
      {"smtp", "--server=127.0.0.1:" + std::to_string(port), "--messages=3", "--output-format=json", "--timeout=2s"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  const nlohmann::json& s = (*doc)["sluice"]["smtp"];
  EXPECT_EQ(s["messages_delivered"], 0);
  EXPECT_EQ(s["errors"]["by_kind"]["refused"], 3);
  EXPECT_FALSE(s["errors"]["first"].empty());
}

TEST(SmtpCli, RefusedRecipientsAreCountedByReplyCode) {
  TinyServer server("220 tiny ESMTP\r\n", "550 5.1.1 no such user\r\n");
  const RunOutput r = run_binary({"smtp", server.server(), "--messages=4", "--per-connection=2", "--timeout=2s"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.out.find("errors      4 (550 4)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("no such user"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("delivered   0 of 4"), std::string::npos) << r.out;
}

TEST(SmtpCli, GarbageAndTemporaryFailures) {
  TinyServer garbage("HTTP/1.1 400 Bad Request\r\n", "250 ok\r\n");
  RunOutput r = run_binary({"smtp", garbage.server(), "--messages=2", "--output-format=json", "--timeout=2s"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  EXPECT_EQ((*doc)["sluice"]["smtp"]["errors"]["by_kind"]["garbage"], 2);
  TinyServer busy("421 too busy\r\n", "250 ok\r\n");
  r = run_binary({"smtp", busy.server(), "--messages=2", "--output-format=json", "--timeout=2s"});
  doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  EXPECT_EQ((*doc)["sluice"]["smtp"]["errors"]["by_code"]["421"], 2);
}

TEST(SmtpCli, BadArgumentsSayWhatIsWrong) {
  RunOutput r = run_binary({"smtp", "--messages=1"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("--server is required"), std::string::npos) << r.err;
  r = run_binary({"smtp", "--server=127.0.0.1"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("HOST:PORT"), std::string::npos) << r.err;
  r = run_binary({"smtp", "--server=127.0.0.1:25", "--messages=1", "--duration=1s"});
  EXPECT_EQ(r.exit_code, 1);
}

}  // namespace
}  // namespace sluice::testing
