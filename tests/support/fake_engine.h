#pragma once
// Test doubles for driving an IoLoop without a kernel or wall time: a clock that moves only when told, and
// an engine whose every io takes a fixed service time on that clock.
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "engine/engine.h"
#include "run/loop_clock.h"

namespace sluice::testing {

class FakeClock final : public ClockSource {
 public:
  explicit FakeClock(std::uint64_t start_ns = 1'000'000'000) : now_(start_ns) {}
  std::uint64_t now_ns() noexcept override { return now_; }
  void sleep_until(std::uint64_t deadline_ns) noexcept override { now_ = std::max(now_, deadline_ns); }
  void advance(std::uint64_t ns) noexcept { now_ += ns; }

 private:
  std::uint64_t now_;
};

// async = false: each io takes service_ns inside submit() (the clock advances by it there), as psync does.
// async = true: submit() accepts every io while fewer than iodepth are in flight; each completes service_ns
// after its submission, and reap() advances the clock to the completions it must wait for.
class FakeEngine final : public Engine {
 public:
  FakeEngine(FakeClock& clock, bool async, std::uint64_t service_ns)
      : clock_(clock), async_(async), service_ns_(service_ns) {}

  std::string_view name() const noexcept override { return "fake"; }
  EngineCaps caps() const noexcept override {
    EngineCaps caps;
    caps.name = "fake";
    caps.async = async_;
    caps.trim = true;
    caps.flush = true;
    caps.needs_fd = false;
    return caps;
  }
  void open(const EngineSetup& setup) override { depth_ = setup.depth; }
  void close() noexcept override {}

  int submit(std::span<IoUnit* const> batch) override {
    int accepted = 0;
    for (IoUnit* unit : batch) {
      if (queued_.size() >= depth_) break;
      unit->result = unit->length;
      for (const auto& [done_ns, queued] : queued_) {
        if (queued->file_index == unit->file_index && queued->offset < unit->offset + unit->length &&
            unit->offset < queued->offset + queued->length) {
          ++overlapping_submits_;
        }
      }
      if (!async_) clock_.advance(service_ns_);
      queued_.push_back({clock_.now_ns() + (async_ ? service_ns_ : 0), unit});
      ++accepted;
    }
    max_in_flight_ = std::max<std::size_t>(max_in_flight_, queued_.size());
    ++submit_calls_;
    return accepted;
  }

  int reap(unsigned min_events, std::span<IoUnit*> out) override {
    std::stable_sort(queued_.begin(), queued_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    if (min_events > 0 && min_events <= queued_.size()) {
      clock_.sleep_until(queued_[min_events - 1].first);  // wait for the min_events-th completion
    }
    std::size_t n = 0;
    while (n < out.size() && n < queued_.size() && queued_[n].first <= clock_.now_ns()) {
      out[n] = queued_[n].second;
      ++n;
    }
    queued_.erase(queued_.begin(), queued_.begin() + static_cast<std::ptrdiff_t>(n));
    return static_cast<int>(n);
  }

  std::size_t max_in_flight() const noexcept { return max_in_flight_; }
  std::size_t submit_calls() const noexcept { return submit_calls_; }
  // Ios submitted while an io sharing a byte with them was still in flight.
  std::size_t overlapping_submits() const noexcept { return overlapping_submits_; }

 private:
  FakeClock& clock_;
  bool async_;
  std::uint64_t service_ns_;
  std::uint32_t depth_ = 1;
  std::vector<std::pair<std::uint64_t, IoUnit*>> queued_;  // (completion time, unit)
  std::size_t max_in_flight_ = 0;
  std::size_t submit_calls_ = 0;
  std::size_t overlapping_submits_ = 0;
};

}  // namespace sluice::testing
