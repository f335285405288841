#pragma once
// The model's service as the lab daemon applies it: given when a request arrived (on the daemon's clock),
// when its reply is due. Each request completes at its arrival time plus its modelled queueing and service
// time, never "now plus a sleep", so the time the path itself takes (FUSE, the loop device) is absorbed
// rather than added (DESIGN.md section 8). docs/lab.md states the semantics; lab/truth.h computes their
// consequences, and the tests check the two against each other.
#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

#include "common/rng.h"
#include "lab/model.h"

namespace sluice {

enum class ModelOp : std::uint8_t { kRead = 0, kWrite = 1, kFlush = 2 };
inline constexpr std::size_t kModelOps = 3;

struct ModelRequest {
  ModelOp op = ModelOp::kRead;
  std::uint64_t offset = 0;  // bytes; ignored for a flush
  std::uint64_t bytes = 0;
};

// What happened to one request, on the daemon's clock.
struct ModelCompletion {
  std::chrono::nanoseconds arrival{0};
  std::chrono::nanoseconds start{0};    // a server took it (a flush: its arrival)
  std::chrono::nanoseconds done{0};     // the reply is due
  std::chrono::nanoseconds service{0};  // its time at the server (a flush: its own cost)
};

// The daemon's record, per op: what `sluice lab stats` reports.
struct ModelOpStats {
  std::uint64_t count = 0;
  std::uint64_t bytes = 0;
  std::chrono::nanoseconds queued{0};   // sum of start - arrival
  std::chrono::nanoseconds service{0};  // sum of service
  std::chrono::nanoseconds total{0};    // sum of done - arrival
};

class ModelEngine {
 public:
  using Clock = std::function<std::chrono::nanoseconds()>;

  // `clock` is the daemon's clock (tests pass a fake one); `model` must have passed validate_model.
  ModelEngine(ModelSpec model, Clock clock);

  // Admits a request arriving now and returns when its reply is due. Not thread-safe: the daemon admits
  // requests one at a time in the order they arrive (the reply is sent outside, at `done`).
  ModelCompletion admit(const ModelRequest& request);

  // admit() at an explicit arrival time, not earlier than the previous one's.
  ModelCompletion admit_at(const ModelRequest& request, std::chrono::nanoseconds arrival);

  const std::array<ModelOpStats, kModelOps>& stats() const noexcept { return stats_; }
  std::uint64_t bytes_written() const noexcept { return bytes_written_; }

 private:
  // Seconds are doubles inside; the interface is in nanoseconds.
  double service_seconds(const ModelRequest& request);
  double positioning_seconds(const ModelRequest& request);
  double jittered(double seconds);
  double cache_ready(double arrival, std::uint64_t bytes);
  double dirty_at(double t) const;
  ModelCompletion flush(double arrival);
  ModelCompletion record(ModelOp op, std::uint64_t bytes, double arrival, double start, double done, double service);

  ModelSpec model_;
  Clock clock_;
  Rng rng_;
  std::vector<double> server_free_;  // when each server finishes its last request
  double link_free_ = 0;             // the bandwidth cap's transfer queue
  double dirty_ = 0;                 // write-back bytes held at dirty_time_, draining at destage rate
  double dirty_time_ = 0;
  std::uint64_t head_ = 0;  // rotating: where the last request the device received ended
  std::uint64_t bytes_written_ = 0;
  std::array<ModelOpStats, kModelOps> stats_{};
};

}  // namespace sluice
