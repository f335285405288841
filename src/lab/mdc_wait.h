#pragma once
// The waiting-time distribution of M/D/c (Poisson arrivals, c servers, one fixed service time D, first come
// first served), exact by Crommelin's argument (1932). Customers present at t that remain at t + D number
// max(N(t) - c, 0): those in service at t have left, those waiting have not (each starts after t and takes D).
// So N(t + D) = max(N(t) - c, 0) + A, A the Poisson arrivals in (t, t + D]: a Markov chain whose stationary
// law is the time-stationary law of N. A customer arriving at tau waits at most kD + u (0 <= u < D) exactly
// when max(N(tau - D + u) - c, 0) + A' <= (k + 1)c - 1, A' the arrivals in (tau - D + u, tau), Poisson of mean
// lambda (D - u): by then at most c - 1 customers older than it remain, so it is in service.
// The lab's truth (lab/truth.h) uses it for open-loop latency percentiles of deterministic models.
#include <cstdint>
#include <vector>

#include "lab/queueing.h"

namespace sluice {

// The stationary probabilities of the number present (index = count) in M/D/`servers` offered
// `offered_load` = lambda * D erlangs (< servers), truncated where the remaining mass is below 1e-14.
std::vector<double> mdc_number_present(double offered_load, std::uint32_t servers);

// P(wait <= x) for an arrival at rate `arrival_rate` with service `service` on `servers` servers; needs
// arrival_rate * service < servers.
double mdc_wait_cdf(double arrival_rate, Seconds service, std::uint32_t servers, Seconds x);

// The q-quantile of the wait (0 < q < 1): the least x with P(wait <= x) >= q, within 1e-9 of D; infinite at or
// above saturation.
Seconds mdc_wait_quantile(double arrival_rate, Seconds service, std::uint32_t servers, double q);

}  // namespace sluice
