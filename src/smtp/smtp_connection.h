#pragma once
// One SMTP client connection over a blocking TCP socket whose connect, every send and every reply wait are
// bounded by a timeout. Failures are returned as an error kind, never thrown, so the load loop counts them.
#include <sys/socket.h>

#include <chrono>
#include <string>

namespace sluice {

// How an exchange ended: a reply (its code), or a network failure of one kind.
struct SmtpReply {
  int code = 0;       // the reply code; 0 when `error` is set
  std::string error;  // "" or "refused", "unreachable", "connect_timeout", "timeout", "closed", "garbage",
                      // "reset"
  std::string text;   // the reply's last line, or the error's detail (for the first errors shown)
  bool ok() const noexcept { return error.empty(); }
};

class SmtpConnection {
 public:
  explicit SmtpConnection(std::chrono::nanoseconds timeout) : timeout_(timeout) {}
  ~SmtpConnection() { close(); }
  SmtpConnection(const SmtpConnection&) = delete;
  SmtpConnection& operator=(const SmtpConnection&) = delete;

  // Connects to `address` and reads the greeting; the reply is the greeting's (220 when all is well).
  SmtpReply open(const sockaddr_storage& address, socklen_t length);
  // Sends `command` (CRLF included by the caller) and reads the reply.
  SmtpReply command(const std::string& text);
  // Sends `data` then reads the reply (for the message and its terminator).
  SmtpReply send_and_read(const std::string& data) { return command(data); }
  bool is_open() const noexcept { return fd_ >= 0; }
  void close() noexcept;

 private:
  SmtpReply read_reply();
  bool send_all(const std::string& data, SmtpReply& failure);

  std::chrono::nanoseconds timeout_;
  int fd_ = -1;
  std::string buffer_;  // received and not yet parsed
};

}  // namespace sluice
