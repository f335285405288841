// run_http_load: resolving the URLs, building each request once, splitting the load over threads and
// merging what they measured.
#include "net/http_load.h"

#include <fmt/format.h>
#include <netdb.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstring>
#include <thread>

#include "common/clock.h"
#include "common/error.h"
#include "net/http_worker.h"
#include "version.h"

namespace sluice {
namespace {

constexpr const char* kErrorNames[] = {"connect_refused", "connect_timeout", "connect_failed", "write_failed",
                                       "read_timeout",    "closed_early",    "bad_response"};

HttpTarget make_target(const HttpUrl& url, const HttpLoadOptions& o) {
  HttpTarget t;
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const std::string port = std::to_string(url.port);
  const int rc = ::getaddrinfo(url.host.c_str(), port.c_str(), &hints, &found);
  if (rc != 0 || found == nullptr) {
    throw UserError(fmt::format("--url={}: the host {} does not resolve ({})", url.text, url.host, ::gai_strerror(rc)));
  }
  std::memcpy(&t.address, found->ai_addr, found->ai_addrlen);
  t.address_size = found->ai_addrlen;
  ::freeaddrinfo(found);
  t.head = o.method == "HEAD";
  std::string& r = t.request;
  r = fmt::format("{} {} HTTP/1.1\r\nHost: {}\r\nUser-Agent: sluice/{}\r\nAccept: */*\r\n", o.method, url.target,
                  url.host_header, SLUICE_VERSION);
  if (!o.keepalive) r += "Connection: close\r\n";
  for (const std::string& h : o.headers) r += h + "\r\n";
  if (!o.body.empty()) r += fmt::format("Content-Length: {}\r\n", o.body.size());
  r += "\r\n";
  r += o.body;
  return t;
}

double cpu_seconds() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// Part i of n of `total`, the remainder spread over the first parts.
std::uint64_t share_of(std::uint64_t total, std::uint32_t i, std::uint32_t n) {
  return total / n + (i < total % n ? 1 : 0);
}

}  // namespace

const char* http_error_name(HttpErrorKind kind) noexcept { return kErrorNames[static_cast<int>(kind)]; }

std::uint64_t HttpLoadResult::error_total() const noexcept {
  std::uint64_t sum = 0;
  for (std::uint64_t e : errors) sum += e;
  return sum;
}

void HttpLoadResult::count_error(HttpErrorKind kind, const std::string& message) {
  ++errors[static_cast<int>(kind)];
  if (first_errors.size() < kKeptErrors) first_errors.push_back(fmt::format("{}: {}", http_error_name(kind), message));
}

void HttpLoadResult::merge(const HttpLoadResult& o) {
  requests += o.requests;
  responses += o.responses;
  body_bytes += o.body_bytes;
  received_bytes += o.received_bytes;
  connections += o.connections;
  max_parallel += o.max_parallel;
  for (int i = 0; i < static_cast<int>(HttpErrorKind::kCount); ++i) errors[i] += o.errors[i];
  for (const std::string& e : o.first_errors) {
    if (first_errors.size() < kKeptErrors) first_errors.push_back(e);
  }
  for (const auto& [code, n] : o.status_codes) status_codes[code] += n;
  connect_ns.merge(o.connect_ns);
  ttfb_ns.merge(o.ttfb_ns);
  latency_ns.merge(o.latency_ns);
  latency_sum_ns += o.latency_sum_ns;
  connect_sum_ns += o.connect_sum_ns;
  ttfb_sum_ns += o.ttfb_sum_ns;
  latency_max_ns = std::max(latency_max_ns, o.latency_max_ns);
  connect_max_ns = std::max(connect_max_ns, o.connect_max_ns);
  ttfb_max_ns = std::max(ttfb_max_ns, o.ttfb_max_ns);
  latency_min_ns = std::min(latency_min_ns, o.latency_min_ns);
  connect_min_ns = std::min(connect_min_ns, o.connect_min_ns);
  ttfb_min_ns = std::min(ttfb_min_ns, o.ttfb_min_ns);
  elapsed_s = std::max(elapsed_s, o.elapsed_s);
  interrupted = interrupted || o.interrupted;
}

HttpLoadResult run_http_load(const HttpLoadOptions& o) {
  if (o.urls.empty()) throw UserError("sluice http needs a URL: --url=http://HOST[:PORT]/PATH or --urls=FILE");
  if (o.duration.count() <= 0 && o.fetches == 0) {
    throw UserError("sluice http needs an end: --duration=T or --fetches=N");
  }
  std::vector<HttpTarget> targets;
  for (const HttpUrl& url : o.urls) targets.push_back(make_target(url, o));
  const std::uint64_t rate = o.rate;
  // Every thread gets at least one connection, one fetch and one request per second of the rate: a share of
  // 0 would mean "no limit" to the worker.
  std::uint64_t most = o.parallel;
  if (o.fetches > 0) most = std::min(most, o.fetches);
  if (rate > 0) most = std::min(most, rate);
  const std::uint32_t threads = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(most, 1, std::max(1u, o.threads)));
  std::vector<HttpWorkerPlan> plans(threads);
  const double cpu_before = cpu_seconds();
  const std::uint64_t start = monotonic_ns();
  for (std::uint32_t i = 0; i < threads; ++i) {
    HttpWorkerPlan& p = plans[i];
    p.connections = static_cast<std::uint32_t>(share_of(o.parallel, i, threads));
    p.quota = o.fetches == 0 ? 0 : share_of(o.fetches, i, threads);
    p.rate = share_of(rate, i, threads);
    p.poisson = o.poisson;
    p.stop_at_ns = o.duration.count() > 0 ? start + static_cast<std::uint64_t>(o.duration.count()) : 0;
    p.connect_timeout_ns = static_cast<std::uint64_t>(o.connect_timeout.count());
    p.read_timeout_ns = static_cast<std::uint64_t>(o.read_timeout.count());
    p.keepalive = o.keepalive;
    p.seed = o.seed + i;
    p.first_url = i;
  }
  std::vector<HttpLoadResult> parts(threads);
  std::vector<std::thread> pool;
  for (std::uint32_t i = 1; i < threads; ++i) {
    pool.emplace_back([&, i] { parts[i] = run_http_worker(targets, plans[i], start); });
  }
  parts[0] = run_http_worker(targets, plans[0], start);
  for (std::thread& t : pool) t.join();
  HttpLoadResult total;
  for (const HttpLoadResult& part : parts) total.merge(part);
  total.cpu_s = cpu_seconds() - cpu_before;
  return total;
}

}  // namespace sluice
