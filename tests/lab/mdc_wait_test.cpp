#include "lab/mdc_wait.h"

#include <gtest/gtest.h>

#include <cmath>

namespace sluice {
namespace {

// Erlang's closed form for one server (M/D/1): P(W <= x) = (1 - rho) sum_{k=0}^{floor(x/D)}
// (lambda (kD - x))^k / k! e^{-lambda (kD - x)}: an independent reference for c = 1.
double md1_cdf(double lambda, double d, double x) {
  double sum = 0;
  for (int k = 0; k <= static_cast<int>(std::floor(x / d)); ++k) {
    const double a = lambda * (k * d - x);
    sum += std::pow(a, k) / std::tgamma(k + 1.0) * std::exp(-a);
  }
  return (1 - lambda * d) * sum;
}

TEST(MdcWait, OneServerIsErlangsClosedForm) {
  const double d = 0.001;
  for (double rho : {0.3, 0.7}) {
    for (double x : {0.0, 0.0004, 0.001, 0.0023, 0.005}) {
      EXPECT_NEAR(mdc_wait_cdf(rho / d, Seconds(d), 1, Seconds(x)), md1_cdf(rho / d, d, x), 1e-9)
          << "rho " << rho << " x " << x;
    }
  }
}

TEST(MdcWait, TheMeanOfTheDistributionIsPollaczekKhinchine) {
  // M/D/1 at rho 0.5, D = 1 ms: Wq = rho D / (2 (1 - rho)) = 0.5 ms; the integral of P(W > x).
  const double d = 0.001;
  double mean = 0;
  const double step = d / 50;
  for (double x = step / 2; x < 20 * d; x += step) mean += (1 - mdc_wait_cdf(500, Seconds(d), 1, Seconds(x))) * step;
  EXPECT_NEAR(mean, 0.0005, 1e-6);
}

TEST(MdcWait, EightServersAgreeWithASimulation) {
  // 8 servers of 4 ms at 1 000 arrivals/s (rho 0.5), simulated (FCFS, 400 000 Poisson arrivals, seed 1):
  // P(wait > 0) = 0.0542, the 99th percentile of the wait 1.168 ms.
  const Seconds d(0.004);
  EXPECT_NEAR(1 - mdc_wait_cdf(1000, d, 8, Seconds(0)), 0.0542, 0.002);
  EXPECT_NEAR(mdc_wait_quantile(1000, d, 8, 0.99).count(), 0.001168, 0.00002);
  // Below P(no wait) the quantile is 0.
  EXPECT_EQ(mdc_wait_quantile(1000, d, 8, 0.9).count(), 0);
}

TEST(MdcWait, TheNumberPresentIsAProbabilityLawWithTheRightMean) {
  // Little: the mean number in service is the offered load.
  const std::vector<double> p = mdc_number_present(4.0, 8);
  double total = 0;
  double busy = 0;
  for (std::size_t j = 0; j < p.size(); ++j) {
    total += p[j];
    busy += p[j] * static_cast<double>(std::min<std::size_t>(j, 8));
  }
  EXPECT_NEAR(total, 1, 1e-12);
  EXPECT_NEAR(busy, 4.0, 1e-6);
}

TEST(MdcWait, AtOrAboveSaturationTheWaitIsUnbounded) {
  EXPECT_TRUE(std::isinf(mdc_wait_quantile(2000, Seconds(0.004), 8, 0.99).count()));
}

}  // namespace
}  // namespace sluice
