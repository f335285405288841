// The event loop of one HTTP load thread: non-blocking sockets registered once, edge-triggered, for input
// and output; a request starts on an idle open connection or a new one; a response ends in the parser.
// Per request no allocation (the open loop's queue grows only while the server falls behind) and no
// syscall beyond send, recv and, for a new connection, socket/connect/epoll_ctl/close.
#include "net/http_worker.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>

#include "common/clock.h"
#include "common/stop_signal.h"
#include "job/job_spec.h"
#include "net/http_response_parser.h"
#include "workload/arrival.h"

namespace sluice {
namespace {

constexpr std::uint64_t kTimeoutScanNs = 10'000'000;  // deadlines are checked every 10 ms
constexpr std::size_t kReadBuffer = 64 * 1024;

enum class Phase { kIdle, kConnecting, kSending, kReceiving };

struct Connection {
  int fd = -1;
  Phase phase = Phase::kIdle;
  std::size_t url = 0;
  std::size_t sent = 0;
  std::uint64_t start_ns = 0;  // the request's start: scheduled arrival or issue time
  std::uint64_t connect_start_ns = 0;
  std::uint64_t deadline_ns = 0;
  bool first_byte = false;
  HttpResponseParser parser;
};

class Worker {
 public:
  Worker(const std::vector<HttpTarget>& targets, const HttpWorkerPlan& plan)
      : targets_(targets), plan_(plan), connections_(plan.connections), buffer_(kReadBuffer) {
    next_url_ = plan.first_url;
    epoll_fd_ = ::epoll_create1(EPOLL_CLOEXEC);
    for (std::size_t i = connections_.size(); i-- > 0;) free_.push_back(i);
  }
  ~Worker() {
    for (Connection& c : connections_) close_connection(c);
    if (epoll_fd_ >= 0) ::close(epoll_fd_);
  }

  HttpLoadResult run(std::uint64_t start_ns);

 private:
  bool may_issue(std::uint64_t now) const {
    return (plan_.quota == 0 || issued_ < plan_.quota) && (plan_.stop_at_ns == 0 || now < plan_.stop_at_ns);
  }
  void start_request(std::size_t index, std::uint64_t start_ns);
  void begin_connect(Connection& c, std::size_t index);
  void on_connected(Connection& c, std::uint64_t now);
  void send_more(Connection& c);
  void receive(Connection& c, std::size_t index);
  void on_event(std::size_t index, std::uint32_t events);
  void complete(Connection& c, std::size_t index, std::uint64_t now);
  void fail(Connection& c, std::size_t index, HttpErrorKind kind, const std::string& why);
  void release(std::size_t index);
  void close_connection(Connection& c);
  void check_deadlines(std::uint64_t now);
  void wait_events(std::uint64_t wait_ns);

  const std::vector<HttpTarget>& targets_;
  const HttpWorkerPlan& plan_;
  std::vector<Connection> connections_;
  std::vector<std::size_t> free_;      // connections with no request (open or not)
  std::deque<std::uint64_t> pending_;  // open loop: scheduled arrivals waiting for a connection
  std::vector<char> buffer_;
  HttpLoadResult result_;
  int epoll_fd_ = -1;
  std::size_t next_url_ = 0;
  std::uint64_t issued_ = 0;
  std::uint32_t in_flight_ = 0;
  std::uint64_t last_end_ns_ = 0;
};

void Worker::close_connection(Connection& c) {
  if (c.fd >= 0) ::close(c.fd);  // also leaves the epoll set
  c.fd = -1;
}

void Worker::release(std::size_t index) {
  Connection& c = connections_[index];
  c.phase = Phase::kIdle;
  --in_flight_;
  free_.push_back(index);
}

void Worker::fail(Connection& c, std::size_t index, HttpErrorKind kind, const std::string& why) {
  result_.count_error(kind, why);
  close_connection(c);
  last_end_ns_ = monotonic_ns();
  release(index);
}

void Worker::start_request(std::size_t index, std::uint64_t start_ns) {
  Connection& c = connections_[index];
  c.url = next_url_++ % targets_.size();
  c.start_ns = start_ns;
  c.sent = 0;
  c.first_byte = false;
  c.parser.reset(targets_[c.url].head);
  ++result_.requests;
  ++in_flight_;
  result_.max_parallel = std::max(result_.max_parallel, in_flight_);
  if (c.fd < 0) {
    begin_connect(c, index);
    return;
  }
  c.phase = Phase::kSending;
  c.deadline_ns = monotonic_ns() + plan_.read_timeout_ns;
  send_more(c);
}

void Worker::begin_connect(Connection& c, std::size_t index) {
  const HttpTarget& t = targets_[c.url];
  ++result_.connections;
  c.connect_start_ns = monotonic_ns();
  c.fd = ::socket(t.address.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (c.fd < 0) return fail(c, index, HttpErrorKind::kConnectFailed, fmt::format("socket: {}", std::strerror(errno)));
  const int one = 1;
  ::setsockopt(c.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  epoll_event ev{};
  ev.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
  ev.data.u64 = index;
  if (::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, c.fd, &ev) != 0) {
    return fail(c, index, HttpErrorKind::kConnectFailed, fmt::format("epoll_ctl: {}", std::strerror(errno)));
  }
  c.phase = Phase::kConnecting;
  c.deadline_ns = c.connect_start_ns + plan_.connect_timeout_ns;
  if (::connect(c.fd, reinterpret_cast<const sockaddr*>(&t.address), t.address_size) == 0) {
    on_connected(c, monotonic_ns());
  } else if (errno != EINPROGRESS) {
    const int err = errno;
    fail(c, index, err == ECONNREFUSED ? HttpErrorKind::kConnectRefused : HttpErrorKind::kConnectFailed,
         fmt::format("connect: {}", std::strerror(err)));
  }
}

void Worker::on_connected(Connection& c, std::uint64_t now) {
  const std::uint64_t took = now - c.connect_start_ns;
  result_.connect_ns.record(took);
  result_.connect_sum_ns += took;
  result_.connect_max_ns = std::max(result_.connect_max_ns, took);
  result_.connect_min_ns = std::min(result_.connect_min_ns, took);
  c.phase = Phase::kSending;
  c.deadline_ns = now + plan_.read_timeout_ns;
  send_more(c);
}

void Worker::send_more(Connection& c) {
  const std::string& request = targets_[c.url].request;
  while (c.sent < request.size()) {
    const ssize_t n = ::send(c.fd, request.data() + c.sent, request.size() - c.sent, MSG_NOSIGNAL);
    if (n > 0) {
      c.sent += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return;  // the next EPOLLOUT edge resumes
    const std::size_t index = static_cast<std::size_t>(&c - connections_.data());
    return fail(c, index, HttpErrorKind::kWriteFailed, fmt::format("send: {}", std::strerror(errno)));
  }
  c.phase = Phase::kReceiving;
}

void Worker::complete(Connection& c, std::size_t index, std::uint64_t now) {
  const HttpResponseParser& p = c.parser;
  const std::uint64_t latency = now - c.start_ns;
  result_.latency_ns.record(latency);
  result_.latency_sum_ns += latency;
  result_.latency_max_ns = std::max(result_.latency_max_ns, latency);
  result_.latency_min_ns = std::min(result_.latency_min_ns, latency);
  ++result_.responses;
  ++result_.status_codes[p.status()];
  result_.body_bytes += p.body_bytes();
  result_.received_bytes += p.received_bytes();
  if (!plan_.keepalive || !p.keep_alive()) close_connection(c);
  last_end_ns_ = now;
  release(index);
}

void Worker::receive(Connection& c, std::size_t index) {
  for (;;) {
    const ssize_t n = ::recv(c.fd, buffer_.data(), buffer_.size(), 0);
    const std::uint64_t now = monotonic_ns();
    if (n > 0) {
      if (c.phase != Phase::kReceiving && c.phase != Phase::kSending) {
        close_connection(c);  // bytes on an idle connection: no request of ours asked for them
        return;
      }
      if (!c.first_byte) {
        c.first_byte = true;
        const std::uint64_t ttfb = now - c.start_ns;
        result_.ttfb_ns.record(ttfb);
        result_.ttfb_sum_ns += ttfb;
        result_.ttfb_max_ns = std::max(result_.ttfb_max_ns, ttfb);
        result_.ttfb_min_ns = std::min(result_.ttfb_min_ns, ttfb);
      }
      c.deadline_ns = now + plan_.read_timeout_ns;
      const std::size_t used = c.parser.feed(buffer_.data(), static_cast<std::size_t>(n));
      if (c.parser.failed()) return fail(c, index, HttpErrorKind::kBadResponse, c.parser.error());
      if (c.parser.done()) {
        if (used < static_cast<std::size_t>(n)) {
          return fail(c, index, HttpErrorKind::kBadResponse, "bytes after the end of the response");
        }
        return complete(c, index, now);
      }
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return;
    if (c.phase == Phase::kIdle) {  // the server closed an idle keep-alive connection
      close_connection(c);
      return;
    }
    if (n == 0) {
      c.parser.finish_on_close();
      if (c.parser.done()) {
        close_connection(c);
        return complete(c, index, now);
      }
      return fail(c, index, HttpErrorKind::kClosedEarly, c.parser.error());
    }
    return fail(c, index, HttpErrorKind::kClosedEarly, fmt::format("recv: {}", std::strerror(errno)));
  }
}

void Worker::on_event(std::size_t index, std::uint32_t events) {
  Connection& c = connections_[index];
  if (c.fd < 0) return;
  if (c.phase == Phase::kConnecting) {
    int err = 0;
    socklen_t len = sizeof err;
    ::getsockopt(c.fd, SOL_SOCKET, SO_ERROR, &err, &len);
    if (err != 0) {
      return fail(c, index, err == ECONNREFUSED ? HttpErrorKind::kConnectRefused : HttpErrorKind::kConnectFailed,
                  fmt::format("connect: {}", std::strerror(err)));
    }
    if ((events & EPOLLOUT) == 0) return;
    on_connected(c, monotonic_ns());
  } else if (c.phase == Phase::kSending && (events & EPOLLOUT) != 0) {
    send_more(c);
  }
  if (c.fd >= 0 && (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) != 0) receive(c, index);
}

void Worker::check_deadlines(std::uint64_t now) {
  for (std::size_t i = 0; i < connections_.size(); ++i) {
    Connection& c = connections_[i];
    if (c.phase == Phase::kIdle || now < c.deadline_ns) continue;
    if (c.phase == Phase::kConnecting) {
      fail(c, i, HttpErrorKind::kConnectTimeout,
           fmt::format("connect: no answer within {} ms", plan_.connect_timeout_ns / 1'000'000));
    } else {
      fail(c, i, HttpErrorKind::kReadTimeout,
           fmt::format("no response byte within {} ms", plan_.read_timeout_ns / 1'000'000));
    }
  }
}

void Worker::wait_events(std::uint64_t wait_ns) {
  epoll_event events[256];
  const timespec ts{static_cast<time_t>(wait_ns / 1'000'000'000ull), static_cast<long>(wait_ns % 1'000'000'000ull)};
  int n = ::epoll_pwait2(epoll_fd_, events, 256, &ts, nullptr);
  if (n < 0 && errno == ENOSYS)
    n = ::epoll_wait(epoll_fd_, events, 256, static_cast<int>((wait_ns + 999'999) / 1'000'000));
  for (int i = 0; i < n; ++i) on_event(static_cast<std::size_t>(events[i].data.u64), events[i].events);
}

HttpLoadResult Worker::run(std::uint64_t start_ns) {
  if (epoll_fd_ < 0) {
    result_.count_error(HttpErrorKind::kConnectFailed, fmt::format("epoll_create1: {}", std::strerror(errno)));
    return result_;
  }
  JobSpec rate_job;
  rate_job.pacing.rate_iops[index_of(Direction::kRead)] = plan_.rate;
  rate_job.pacing.rate_process = plan_.poisson ? RateProcess::kPoisson : RateProcess::kLinear;
  ArrivalSchedule schedule(rate_job.pacing, plan_.seed);
  const bool open_loop = plan_.rate > 0;
  schedule.start(start_ns);
  std::uint64_t next_arrival = open_loop ? schedule.next_arrival(Direction::kRead, 0) : 0;
  std::uint64_t next_scan = start_ns + kTimeoutScanNs;
  last_end_ns_ = start_ns;
  for (;;) {
    std::uint64_t now = monotonic_ns();
    if (stop_requested()) {
      result_.interrupted = true;
      break;
    }
    if (open_loop) {
      while (may_issue(next_arrival) && next_arrival <= now) {
        pending_.push_back(next_arrival);
        ++issued_;
        next_arrival = schedule.next_arrival(Direction::kRead, 0);
      }
      while (!pending_.empty() && !free_.empty()) {
        const std::size_t index = free_.back();
        free_.pop_back();
        start_request(index, pending_.front());
        pending_.pop_front();
      }
    } else {
      while (!free_.empty() && may_issue(now)) {
        const std::size_t index = free_.back();
        free_.pop_back();
        ++issued_;
        start_request(index, now);
        now = monotonic_ns();  // a refused connect frees its connection at once
      }
    }
    const bool more = open_loop ? may_issue(next_arrival) : may_issue(now);
    if (in_flight_ == 0 && pending_.empty() && !more) break;
    if (now >= next_scan) {
      check_deadlines(now);
      next_scan = now + kTimeoutScanNs;
      continue;  // failures freed connections: issue again before waiting
    }
    std::uint64_t wait = next_scan - now;
    if (open_loop && more && pending_.empty()) wait = std::min(wait, next_arrival > now ? next_arrival - now : 0);
    if (!open_loop && !free_.empty() && more) wait = 0;
    wait_events(wait);
  }
  result_.elapsed_s = static_cast<double>(std::max(last_end_ns_, start_ns) - start_ns) / 1e9;
  return result_;
}

}  // namespace

HttpLoadResult run_http_worker(const std::vector<HttpTarget>& targets, const HttpWorkerPlan& plan,
                               std::uint64_t start_ns) {
  Worker worker(targets, plan);
  return worker.run(start_ns);
}

}  // namespace sluice
