#pragma once
// A server session (serve_connection) on one end of a socket pair, in a thread, and the test as its client on
// the other: fio's protocol without a network or a process.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

#include "fionet/server_session.h"
#include "fionet/wire.h"

namespace sluice::fionet {

class SessionOverSocketPair : public ::testing::Test {
 protected:
  // `secret`: the server's shared secret (--server-secret), none when empty.
  explicit SessionOverSocketPair(std::string secret = {}) : secret_(std::move(secret)) {}

  void SetUp() override {
    int fds[2];
    ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
    client_ = fds[0];
    server_fd_ = fds[1];
    server_ = std::thread([this] {
      SessionLog log{[this](const std::string& line) { log_ += line + "\n"; }};
      code_ = serve_connection(server_fd_, "test-peer", log, secret_);
      ::close(server_fd_);
    });
  }
  void TearDown() override {
    if (client_ >= 0) ::close(client_);
    if (server_.joinable()) server_.join();
  }
  // The server's next message (a failure when none comes within 10 s).
  Message next() {
    ReadResult r = read_message(client_, std::chrono::seconds(10));
    EXPECT_EQ(r.status, ReadStatus::kOk);
    return r.message;
  }

  std::string secret_;
  int client_ = -1;
  int server_fd_ = -1;
  std::thread server_;
  std::string log_;
  int code_ = -1;
};

}  // namespace sluice::fionet
