#pragma once
// One thread's share of an HTTP load: its connections on one epoll instance (internal to src/net;
// run_http_load in http_load.h splits the work and merges the results).
#include <sys/socket.h>

#include <cstdint>
#include <string>
#include <vector>

#include "net/http_load.h"

namespace sluice {

// One URL, resolved, with its request bytes built once.
struct HttpTarget {
  sockaddr_storage address{};
  socklen_t address_size = 0;
  std::string request;
  bool head = false;
};

struct HttpWorkerPlan {
  std::uint32_t connections = 1;  // closed loop: in flight; open loop: most open
  std::uint64_t quota = 0;        // requests to start; 0 = until stop_at_ns
  std::uint64_t rate = 0;         // per second; 0 = closed loop
  bool poisson = false;
  std::uint64_t stop_at_ns = 0;  // monotonic; 0 = until the quota is done
  std::uint64_t connect_timeout_ns = 0;
  std::uint64_t read_timeout_ns = 0;
  bool keepalive = true;
  std::uint64_t seed = 1;
  std::size_t first_url = 0;
};

// Runs the plan against `targets` until the quota or stop time is reached and every started request has
// ended (response, error or timeout), or a stop was requested. Not thread-safe; one worker per thread.
HttpLoadResult run_http_worker(const std::vector<HttpTarget>& targets, const HttpWorkerPlan& plan,
                               std::uint64_t start_ns);

}  // namespace sluice
