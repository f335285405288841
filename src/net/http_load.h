#pragma once
// sluice http's load: an event-driven HTTP/1.1 client (epoll, non-blocking sockets, many connections per
// thread) fetching a set of URLs in a closed loop (--parallel connections, each sending its next request when
// the previous response ended) or an open loop (--rate requests per second on a constant or Poisson
// schedule; latency is measured from the scheduled arrival, so a slow server shows up as latency and not as
// missing requests). Every connect and every wait for response bytes has a timeout; failures are counted by
// kind, never thrown.
#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "net/http_url.h"
#include "stats/latency_histogram.h"

namespace sluice {

struct HttpLoadOptions {
  std::vector<HttpUrl> urls;  // fetched in turn (request i takes URL i mod size), as http_load does
  std::string method = "GET";
  std::vector<std::string> headers;      // "Name: value" lines added to every request
  std::string body;                      // sent with Content-Length when not empty
  std::uint32_t parallel = 10;           // closed loop: concurrent requests; open loop: the most connections open
  std::uint64_t rate = 0;                // requests per second over all threads; 0 = closed loop
  bool poisson = false;                  // open loop: exponential gaps instead of constant ones
  std::chrono::nanoseconds duration{0};  // stop issuing after this long (0: --fetches decides)
  std::uint64_t fetches = 0;             // stop after this many requests (0: --duration decides)
  bool keepalive = true;                 // false: one connection per request (Connection: close)
  std::chrono::nanoseconds connect_timeout{std::chrono::seconds(5)};
  std::chrono::nanoseconds read_timeout{std::chrono::seconds(10)};  // the longest wait for a response byte
  std::uint32_t threads = 1;
  std::uint64_t seed = 1;  // of the Poisson schedule
};

// The kinds of failure, as counted and reported ("errors" in JSON), in report order.
enum class HttpErrorKind {
  kConnectRefused,
  kConnectTimeout,
  kConnectFailed,
  kWriteFailed,
  kReadTimeout,
  kClosedEarly,
  kBadResponse,
  kCount
};
const char* http_error_name(HttpErrorKind kind) noexcept;  // "connect_refused", ...

struct HttpLoadResult {
  std::uint64_t requests = 0;        // started
  std::uint64_t responses = 0;       // complete responses (any status)
  std::uint64_t body_bytes = 0;      // of complete responses: http_load's "bytes"
  std::uint64_t received_bytes = 0;  // everything read, headers included
  std::uint64_t connections = 0;     // connects attempted
  std::uint32_t max_parallel = 0;    // most requests in flight at once (per thread, summed)
  std::uint64_t errors[static_cast<int>(HttpErrorKind::kCount)] = {};
  std::vector<std::string> first_errors;  // up to kKeptErrors messages, in order of occurrence
  std::map<int, std::uint64_t> status_codes;
  LatencyHistogram connect_ns;  // TCP connect, per new connection
  LatencyHistogram ttfb_ns;     // request start (scheduled arrival in the open loop) to the first response byte
  LatencyHistogram latency_ns;  // request start to the last byte of the response
  std::uint64_t latency_sum_ns = 0, connect_sum_ns = 0, ttfb_sum_ns = 0;  // exact means
  std::uint64_t latency_max_ns = 0, connect_max_ns = 0, ttfb_max_ns = 0;
  std::uint64_t latency_min_ns = ~0ull, connect_min_ns = ~0ull, ttfb_min_ns = ~0ull;
  double elapsed_s = 0;  // first request to the last response (or the end of the drain)
  double cpu_s = 0;      // user + system CPU time of the process during the run
  bool interrupted = false;

  static constexpr std::size_t kKeptErrors = 5;
  std::uint64_t error_total() const noexcept;
  void count_error(HttpErrorKind kind, const std::string& message);
  void merge(const HttpLoadResult& other);
};

// Resolves the URLs' hosts (throws UserError when a host does not resolve), runs the load on
// options.threads threads and returns the merged result. Needs duration or fetches (UserError otherwise).
// Stops early, with `interrupted`, on SIGINT/SIGTERM (run/stop_signal.h).
HttpLoadResult run_http_load(const HttpLoadOptions& options);

}  // namespace sluice
