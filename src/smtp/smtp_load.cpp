#include "smtp/smtp_load.h"

#include <netdb.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "common/clock.h"
#include "common/error.h"
#include "common/rng.h"
#include "common/stop_signal.h"
#include "smtp/smtp_connection.h"
#include "smtp/smtp_protocol.h"

namespace sluice {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t kFirstErrors = 5;

struct Address {
  sockaddr_storage storage{};
  socklen_t length = 0;
};

Address resolve(const std::string& host, std::uint16_t port) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* list = nullptr;
  const std::string service = std::to_string(port);
  const int rc = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &list);
  if (rc != 0 || list == nullptr) {
    throw UserError("--server=" + host + ":" + service + ": cannot resolve '" + host + "': " + ::gai_strerror(rc));
  }
  Address a;
  std::memcpy(&a.storage, list->ai_addr, list->ai_addrlen);
  a.length = list->ai_addrlen;
  ::freeaddrinfo(list);
  return a;
}

// Hands out messages: their index and the time each is due (now in a closed loop).
class Schedule {
 public:
  Schedule(const SmtpOptions& o, Clock::time_point start)
      : options_(o), start_(start), deadline_(start + o.duration), next_due_(start), rng_(o.seed ^ 0x5eedull) {}

  std::optional<std::pair<std::uint64_t, Clock::time_point>> next() {
    std::lock_guard lock(mutex_);
    if (stop_requested()) return std::nullopt;
    if (options_.messages != 0 && issued_ >= options_.messages) return std::nullopt;
    Clock::time_point due = Clock::now();
    if (options_.rate != 0) {
      due = next_due_;
      const double gap_s = options_.poisson ? -std::log(1.0 - rng_.uniform()) / static_cast<double>(options_.rate)
                                            : 1.0 / static_cast<double>(options_.rate);
      next_due_ += std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(gap_s));
    }
    if (options_.messages == 0 && due >= deadline_) return std::nullopt;
    return std::make_pair(issued_++, due);
  }

 private:
  const SmtpOptions& options_;
  Clock::time_point start_, deadline_, next_due_;
  std::mutex mutex_;
  std::uint64_t issued_ = 0;
  Rng rng_;
};

std::uint64_t ns_between(Clock::time_point a, Clock::time_point b) {
  return b > a ? static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(b - a).count()) : 0;
}

class Worker {
 public:
  Worker(const SmtpOptions& o, const Address& a, const std::string& body, Schedule& s, std::uint32_t index)
      : options_(o), address_(a), body_(body), schedule_(s), connection_(o.timeout), rng_(o.seed + 1 + index) {}

  void run() {
    while (const auto job = schedule_.next()) {
      std::this_thread::sleep_until(job->second);
      send_one(job->first, job->second);
    }
    if (connection_.is_open()) connection_.command("QUIT\r\n");
    connection_.close();
  }

  SmtpCounters counters;

 private:
  std::uint32_t messages_for_connection() {
    return options_.per_connection <= 1 ? 1 : 1 + static_cast<std::uint32_t>(rng_.below(options_.per_connection));
  }

  const std::string& pick(const std::vector<std::string>& pool) { return pool[rng_.below(pool.size())]; }

  // Counts a failed message: by reply code or network kind; closes the connection unless the server just
  // refused this message (then RSET keeps the connection usable).
  void fail(const std::string& step, const SmtpReply& reply) {
    const std::string key = reply.ok() ? std::to_string(reply.code) : reply.error;
    ++counters.errors[key];
    if (counters.first_errors.size() < kFirstErrors)
      counters.first_errors.push_back(step + ": " + key + " " + reply.text);
    if (reply.ok() && reply.code != 421 && connection_.is_open()) {
      if (connection_.command("RSET\r\n").code / 100 == 2) return;
    }
    connection_.close();
  }

  bool ensure_open() {
    if (connection_.is_open() && left_ > 0) return true;
    if (connection_.is_open()) connection_.command("QUIT\r\n");
    const Clock::time_point t0 = Clock::now();
    SmtpReply r = connection_.open(address_.storage, address_.length);
    if (!r.ok() || r.code != 220) return fail("connect", r), false;
    ++counters.connections;
    r = connection_.command("EHLO sluice.example.com\r\n");
    if (!r.ok() || r.code != 250) return fail("EHLO", r), false;
    counters.latency[static_cast<int>(SmtpPhase::kConnect)].record(ns_between(t0, Clock::now()));
    left_ = messages_for_connection();
    return true;
  }

  void send_one(std::uint64_t id, Clock::time_point due) {
    ++counters.attempted;
    // Closed loop: the message starts now; open loop: when it was due (queue wait counts).
    const Clock::time_point start = options_.rate != 0 ? due : Clock::now();
    if (!ensure_open()) return;
    --left_;
    const std::string& from = pick(options_.senders);
    std::vector<std::string> to;
    for (std::uint32_t i = 0; i < options_.recipients; ++i) to.push_back(pick(options_.recipients_pool));
    const std::uint64_t size =
        options_.size_min +
        (options_.size_max > options_.size_min ? rng_.below(options_.size_max - options_.size_min + 1) : 0);

    Clock::time_point t = Clock::now();
    SmtpReply r = connection_.command("MAIL FROM:<" + from + ">\r\n");
    if (!r.ok() || r.code / 100 != 2) return fail("MAIL FROM", r);
    Clock::time_point t2 = Clock::now();
    counters.latency[static_cast<int>(SmtpPhase::kMail)].record(ns_between(t, t2));
    for (const std::string& rcpt : to) {
      r = connection_.command("RCPT TO:<" + rcpt + ">\r\n");
      if (!r.ok() || r.code / 100 != 2) return fail("RCPT TO", r);
    }
    t = Clock::now();
    counters.latency[static_cast<int>(SmtpPhase::kRcpt)].record(ns_between(t2, t));
    r = connection_.command("DATA\r\n");
    if (!r.ok() || r.code != 354) return fail("DATA", r);
    const std::string text = message_text(from, to, id, body_, size);
    r = connection_.send_and_read(text + ".\r\n");
    if (!r.ok() || r.code / 100 != 2) return fail("end of DATA", r);
    const Clock::time_point end = Clock::now();
    counters.latency[static_cast<int>(SmtpPhase::kData)].record(ns_between(t, end));
    counters.latency[static_cast<int>(SmtpPhase::kTotal)].record(ns_between(start, end));
    ++counters.delivered;
    counters.bytes += text.size();
  }

  const SmtpOptions& options_;
  const Address& address_;
  const std::string& body_;
  Schedule& schedule_;
  SmtpConnection connection_;
  Rng rng_;
  std::uint32_t left_ = 0;  // messages still to send on the open connection
};

}  // namespace

const char* smtp_phase_name(SmtpPhase phase) {
  switch (phase) {
    case SmtpPhase::kConnect:
      return "connect";
    case SmtpPhase::kMail:
      return "mail";
    case SmtpPhase::kRcpt:
      return "rcpt";
    case SmtpPhase::kData:
      return "data";
    case SmtpPhase::kTotal:
      return "total";
  }
  return "?";
}

void SmtpCounters::merge(const SmtpCounters& other) {
  delivered += other.delivered;
  attempted += other.attempted;
  bytes += other.bytes;
  connections += other.connections;
  for (const auto& [key, n] : other.errors) errors[key] += n;
  for (const std::string& e : other.first_errors) {
    if (first_errors.size() < kFirstErrors) first_errors.push_back(e);
  }
  for (std::size_t i = 0; i < kSmtpPhaseCount; ++i) latency[i].merge(other.latency[i]);
}

std::uint64_t SmtpCounters::error_count() const {
  std::uint64_t n = 0;
  for (const auto& [key, count] : errors) n += count;
  return n;
}

SmtpResult run_smtp_load(const SmtpOptions& options) {
  SmtpResult result;
  result.options = options;
  result.timestamp_ms = wall_clock_ms();
  const Address address = resolve(options.host, options.port);
  const std::string body = make_body_pool(options.size_max, options.seed);
  const Clock::time_point start = Clock::now();
  Schedule schedule(options, start);
  std::vector<std::unique_ptr<Worker>> workers;
  for (std::uint32_t i = 0; i < options.parallel; ++i) {
    workers.push_back(std::make_unique<Worker>(options, address, body, schedule, i));
  }
  std::vector<std::thread> threads;
  threads.reserve(workers.size());
  for (auto& w : workers) threads.emplace_back([&w] { w->run(); });
  for (std::thread& t : threads) t.join();
  result.elapsed_s = std::chrono::duration<double>(Clock::now() - start).count();
  for (auto& w : workers) result.counters.merge(w->counters);
  result.interrupted = stop_requested();
  return result;
}

}  // namespace sluice
