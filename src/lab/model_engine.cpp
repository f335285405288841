#include "lab/model_engine.h"

#include <algorithm>
#include <cmath>

namespace sluice {
namespace {

double engine_seconds(std::chrono::nanoseconds t) { return static_cast<double>(t.count()) * 1e-9; }

std::chrono::nanoseconds engine_nanoseconds(double seconds) {
  return std::chrono::nanoseconds(std::llround(seconds * 1e9));
}

double per_byte_seconds(std::uint64_t bytes, double bytes_per_s) {
  return bytes_per_s > 0 ? static_cast<double>(bytes) / bytes_per_s : 0.0;
}

}  // namespace

ModelEngine::ModelEngine(ModelSpec model, Clock clock)
    : model_(std::move(model)), clock_(std::move(clock)), rng_(model_.seed), server_free_(model_.servers, 0.0) {}

ModelCompletion ModelEngine::admit(const ModelRequest& request) { return admit_at(request, clock_()); }

ModelCompletion ModelEngine::admit_at(const ModelRequest& request, std::chrono::nanoseconds arrival) {
  const double t = engine_seconds(arrival);
  if (request.op == ModelOp::kFlush) return flush(t);
  const bool write = request.op == ModelOp::kWrite;
  const bool cached = write && model_.write_cache == WriteCacheMode::kWriteBack;
  const double ready = cached ? cache_ready(t, request.bytes) : t;
  const double service = service_seconds(request);
  const auto server = std::min_element(server_free_.begin(), server_free_.end());
  const double start = std::max(ready, *server);
  *server = start + service;
  double device_done = *server;
  if (model_.bandwidth_bytes_per_s > 0) {
    link_free_ = std::max(link_free_, ready) + per_byte_seconds(request.bytes, model_.bandwidth_bytes_per_s);
    device_done = std::max(device_done, link_free_);
  }
  const double done = device_done + engine_seconds(model_.network_rtt);
  if (!cached) head_ = request.offset + request.bytes;
  if (write) bytes_written_ += request.bytes;
  return record(request.op, request.bytes, t, start, done, service);
}

double ModelEngine::service_seconds(const ModelRequest& request) {
  const double transfer = per_byte_seconds(request.bytes, model_.transfer_bytes_per_s);
  if (request.op == ModelOp::kWrite && model_.write_cache == WriteCacheMode::kWriteBack) {
    return jittered(engine_seconds(model_.cache_write_time) + transfer);
  }
  std::chrono::nanoseconds fixed = model_.read_time;
  if (request.op == ModelOp::kWrite) {
    const bool past_cliff = model_.has_cliff() && bytes_written_ >= model_.cliff_after_bytes;
    fixed = past_cliff ? model_.cliff_write_time : model_.write_time;
  }
  return jittered(engine_seconds(fixed) + transfer + positioning_seconds(request));
}

double ModelEngine::positioning_seconds(const ModelRequest& request) {
  if (!model_.rotating() || request.offset == head_) return 0.0;
  const std::uint64_t distance = request.offset > head_ ? request.offset - head_ : head_ - request.offset;
  const double x = std::min(1.0, static_cast<double>(distance) / static_cast<double>(model_.size_bytes));
  const double track = engine_seconds(model_.seek_track);
  const double seek = track + (engine_seconds(model_.seek_full) - track) * std::sqrt(x);
  return seek + rng_.uniform() * 60.0 / model_.rpm;
}

double ModelEngine::jittered(double seconds) {
  const double f = model_.jitter_fraction;
  switch (model_.jitter) {
    case JitterKind::kNone:
      return seconds;
    case JitterKind::kUniform:
      return seconds * (1.0 + f * (2.0 * rng_.uniform() - 1.0));
    case JitterKind::kExponential:
      return seconds * (1.0 - f - f * std::log1p(-rng_.uniform()));
  }
  return seconds;
}

double ModelEngine::dirty_at(double t) const {
  if (t <= dirty_time_) return dirty_;
  return std::max(0.0, dirty_ - model_.destage_bytes_per_s * (t - dirty_time_));
}

// A write waits (behind any write already waiting) until the cache has room for it; a write larger than the
// cache waits until it is empty.
double ModelEngine::cache_ready(double arrival, std::uint64_t bytes) {
  const double t0 = std::max(arrival, dirty_time_);
  double level = dirty_at(t0);
  const double size = static_cast<double>(model_.cache_size_bytes);
  const double wanted = static_cast<double>(bytes);
  const double excess = wanted > size ? level : level + wanted - size;
  double ready = t0;
  if (excess > 0) {
    ready += excess / model_.destage_bytes_per_s;
    level -= excess;
  }
  dirty_ = level + wanted;
  dirty_time_ = ready;
  return ready;
}

ModelCompletion ModelEngine::flush(double arrival) {
  double settled = arrival;
  if (model_.write_cache == WriteCacheMode::kWriteBack && !model_.battery) {
    const double from = std::max(arrival, dirty_time_);
    settled = from + dirty_at(from) / model_.destage_bytes_per_s;
  }
  const double done = settled + engine_seconds(model_.flush_time) + engine_seconds(model_.network_rtt);
  return record(ModelOp::kFlush, 0, arrival, arrival, done, done - arrival - engine_seconds(model_.network_rtt));
}

ModelCompletion ModelEngine::record(ModelOp op, std::uint64_t bytes, double arrival, double start, double done,
                                    double service) {
  const ModelCompletion c{engine_nanoseconds(arrival), engine_nanoseconds(start), engine_nanoseconds(done),
                          engine_nanoseconds(service)};
  ModelOpStats& s = stats_[static_cast<std::size_t>(op)];
  ++s.count;
  s.bytes += bytes;
  s.queued += c.start - c.arrival;
  s.service += c.service;
  s.total += c.done - c.arrival;
  return c;
}

}  // namespace sluice
