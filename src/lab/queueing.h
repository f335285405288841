#pragma once
// The queueing formulas behind the truth (lab/truth.h): pure arithmetic, no model.
//
// Closed loop (a benchmark keeping `depth` requests outstanding, no think time): the asymptotic bounds
// X(q) = min(q / T1, Xmax), R(q) = q / X(q) (Little's law), T1 the latency of a request alone and Xmax the
// tightest throughput bound (c / S for c servers of mean service S, and each byte-rate cap). They are exact
// when service is deterministic, at depth 1, and when the servers are saturated (Xmax = c / S); when service
// varies, the throughput near the knee (q ~ Xmax * T1) is below the bound.
//
// Open loop (Poisson arrivals at rate lambda): M/M/c by Erlang C, M/G/c by the Lee-Longton approximation
// Wq(M/G/c) ~ (1 + scv) / 2 * Wq(M/M/c), scv the squared coefficient of variation of service; exact for c = 1
// (Pollaczek-Khinchine), within a few percent for M/D/c at the loads that matter.
#include <chrono>
#include <cstdint>

namespace sluice {

using Seconds = std::chrono::duration<double>;

struct ClosedLoopBounds {
  Seconds zero_load_latency{0};  // T1
  double max_iops = 0;           // Xmax
};

// min(q / T1, Xmax) requests per second at `depth` outstanding requests (depth >= 1).
double closed_loop_iops(const ClosedLoopBounds& bounds, std::uint32_t depth);

// The mean latency at `depth`: depth / closed_loop_iops.
Seconds closed_loop_latency(const ClosedLoopBounds& bounds, std::uint32_t depth);

// Where the two bounds meet: Xmax * T1 requests outstanding (not rounded).
double knee_depth(const ClosedLoopBounds& bounds);

// Erlang C: the probability that an arrival waits, `servers` servers offered `offered_load` = lambda * S
// erlangs (< servers).
double erlang_c(std::uint32_t servers, double offered_load);

// The mean wait before service in M/M/c; infinite when lambda * S >= servers.
Seconds mmc_wait(double arrival_rate, Seconds service, std::uint32_t servers);

// The mean wait in M/G/c by Lee-Longton: (1 + scv) / 2 * mmc_wait; exact for one server.
Seconds mgc_wait(double arrival_rate, Seconds service, std::uint32_t servers, double scv);

}  // namespace sluice
