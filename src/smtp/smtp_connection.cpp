#include "smtp/smtp_connection.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "smtp/smtp_protocol.h"

namespace sluice {
namespace {

constexpr std::size_t kMaxLine = 4096;  // RFC 5321's limit is 512; anything far longer is garbage

SmtpReply failure(std::string kind, std::string detail) { return {0, std::move(kind), std::move(detail)}; }

std::string errno_kind(int e) {
  switch (e) {
    case ECONNREFUSED:
      return "refused";
    case ENETUNREACH:
    case EHOSTUNREACH:
      return "unreachable";
    case ECONNRESET:
    case EPIPE:
      return "reset";
    case EAGAIN:
    case ETIMEDOUT:
      return "timeout";
    default:
      return "socket";
  }
}

}  // namespace

void SmtpConnection::close() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  buffer_.clear();
}

SmtpReply SmtpConnection::open(const sockaddr_storage& address, socklen_t length) {
  close();
  fd_ = ::socket(address.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd_ < 0) return failure("socket", std::strerror(errno));
  const int one = 1;
  ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (::connect(fd_, reinterpret_cast<const sockaddr*>(&address), length) != 0) {
    if (errno != EINPROGRESS) {
      const int e = errno;
      close();
      return failure(errno_kind(e), std::strerror(e));
    }
    pollfd p{fd_, POLLOUT, 0};
    const int ms = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(timeout_).count());
    if (::poll(&p, 1, ms) <= 0) {
      close();
      return failure("connect_timeout", "no connection within the --timeout");
    }
    int error = 0;
    socklen_t len = sizeof error;
    ::getsockopt(fd_, SOL_SOCKET, SO_ERROR, &error, &len);
    if (error != 0) {
      close();
      return failure(errno_kind(error), std::strerror(error));
    }
  }
  // Blocking from here on, every send and receive bounded by the timeout.
  ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_NONBLOCK);
  const auto us = std::chrono::duration_cast<std::chrono::microseconds>(timeout_).count();
  const timeval tv{static_cast<time_t>(us / 1000000), static_cast<suseconds_t>(us % 1000000)};
  ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  return read_reply();
}

bool SmtpConnection::send_all(const std::string& data, SmtpReply& out) {
  std::size_t sent = 0;
  while (sent < data.size()) {
    const ssize_t n = ::send(fd_, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int e = errno;
      out = failure(errno_kind(e), std::string("send: ") + std::strerror(e));
      close();
      return false;
    }
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

SmtpReply SmtpConnection::command(const std::string& text) {
  if (fd_ < 0) return failure("closed", "not connected");
  SmtpReply out;
  if (!send_all(text, out)) return out;
  return read_reply();
}

SmtpReply SmtpConnection::read_reply() {
  while (true) {
    const std::size_t eol = buffer_.find('\n');
    if (eol != std::string::npos) {
      std::string line = buffer_.substr(0, eol);
      buffer_.erase(0, eol + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      const ReplyLine r = parse_reply_line(line);
      if (r.code == 0) {
        close();
        return failure("garbage", line.substr(0, 80));
      }
      if (r.last) return {r.code, "", line.substr(0, 200)};
      continue;
    }
    if (buffer_.size() > kMaxLine) {
      const std::string head = buffer_.substr(0, 80);
      close();
      return failure("garbage", "reply line longer than 4096 bytes: " + head);
    }
    char chunk[4096];
    const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) {
      close();
      return failure("closed", "the server closed the connection");
    }
    if (n < 0) {
      const int e = errno;
      close();
      return failure(errno_kind(e), e == EAGAIN ? "no reply within the --timeout" : std::strerror(e));
    }
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
}

}  // namespace sluice
